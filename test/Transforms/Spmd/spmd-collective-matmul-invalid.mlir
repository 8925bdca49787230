// RUN: trellis-opt %s --spmd-collective-matmul=microbatches=0 -verify-diagnostics -o /dev/null
// RUN: not trellis-opt %s --spmd-collective-matmul=microbatches=-2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEG

// NEG: error: spmd-collective-matmul: microbatches must be at least 1, got -2

// expected-error @below {{spmd-collective-matmul: microbatches must be at least 1, got 0}}
module {
}
