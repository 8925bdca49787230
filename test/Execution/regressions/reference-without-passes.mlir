// --reference checks what --passes did: the oracle runs the program as
// written (it used to run the same rewrite, and failed outright on the
// asynchronous ppermutes spmd-async-collectives makes).
// RUN: trellis-run %trellis_src/examples/seeds/ffn_naive.mlir --random 1 --quiet --reference --passes='spmd-collective-matmul{force},spmd-async-collectives' 2>&1 | FileCheck %s
// RUN: trellis-run %trellis_src/examples/seeds/ffn_naive.mlir --random 1 --quiet --reference --passes='spmd-collective-matmul{force bidirectional}' 2>&1 | FileCheck %s
// CHECK: oracle: the program with its shardings dropped, on the 8 devices its shard_maps need (partitioned the same way), without --passes
// CHECK: reference: out0 (float32[16,64], 8 devices vs 8): match
