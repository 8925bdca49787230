// Locations as JAX prints them with debug info (`loc(#locN)` after ops,
// `#loc` aliases at the end of the file) parse and carry over to the
// imported ops; locations-error.mlir checks errors point at them.
// RUN: trellis-opt %s --trellis-import-stablehlo --mlir-print-debuginfo | FileCheck %s

// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<4xf32> loc(#[[LOC:.*]])
// CHECK: #[[LOC]] = loc("model.py":12:8)
module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32> loc("x")) -> (tensor<4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32> loc(#loc2)
    return %0 : tensor<4xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("model.py":12:8)
