// JAX prints the module, its functions and their returns at loc(unknown)
// and arguments at a bare name: an error the importer reports there used
// to print as "<unknown>:0: error". It is now reported at the first op
// with a file location in the function or module it concerns.
// RUN: not trellis-opt %s --trellis-import-stablehlo -split-input-file 2>&1 | FileCheck %s

// CHECK: model.py:3:5: error: mhlo.num_partitions is 8 but mesh @mesh has 4 devices
// CHECK-NOT: <unknown>
module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]> loc(#loc3)
  func.func public @main(%arg0: tensor<8xf32> loc("x")) -> (tensor<8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.sine %arg0 : tensor<8xf32> loc(#loc4)
    return %0 : tensor<8xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("model.py":3:5)
#loc4 = loc("model.py":7:9)

// -----

// CHECK: model.py:7:9: error: unknown mesh axis "z" (mesh @mesh has axes ["x"])
// CHECK-NOT: <unknown>
module @jit_g attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=4]> loc(#loc)
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}]>} loc("x")) -> (tensor<8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.sine %arg0 : tensor<8xf32> loc(#loc4)
    return %0 : tensor<8xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc4 = loc("model.py":7:9)

