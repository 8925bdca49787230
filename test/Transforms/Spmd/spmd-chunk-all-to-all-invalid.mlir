// RUN: not trellis-opt %s --pass-pipeline='builtin.module(spmd-chunk-all-to-all{chunks=1})' 2>&1 | FileCheck %s

// CHECK: error: spmd-chunk-all-to-all: chunks must be 0 (chosen per all_to_all) or 2 to 64, not 1
trellis.mesh @mesh = <["x"=4]>

// RUN: not trellis-opt %s --pass-pipeline='builtin.module(spmd-chunk-all-to-all{chunks=-3})' 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: error: spmd-chunk-all-to-all: chunks must be 0 (chosen per all_to_all) or 2 to 64, not -3

// RUN: not trellis-opt %s --pass-pipeline='builtin.module(spmd-chunk-all-to-all{chunks=65})' 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: spmd-chunk-all-to-all: chunks must be 0 (chosen per all_to_all) or 2 to 64, not 65
