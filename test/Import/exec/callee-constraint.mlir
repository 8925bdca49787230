// An entry without shardings that calls a function with a sharding
// constraint (JAX prints a jitted helper with with_sharding_constraint as
// a private function): trellis-run partitions it. It used to take the
// entry as unsharded, skip the partitioner, and stop at the constraint
// ("op was not bufferized").
// RUN: rm -rf %t && trellis-run %s --random 3 --reference --save-inputs --output-dir %t --quiet 2>&1 | FileCheck %s
// RUN: %python %S/check_jax_forms.py callee-constraint %t | FileCheck %s --check-prefix=NP
// CHECK: reference: out0 (float32[8], 4 devices vs 1): match
// NP: callee-constraint: 1 results equal numpy
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<8xf32> {jax.result_info = "result"}) {
    %0 = call @inner(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.add %0, %1 : tensor<8xf32>
    return %2 : tensor<8xf32>
  }
  func.func private @inner(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<8xf32>
    %1 = stablehlo.sine %0 : tensor<8xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}
