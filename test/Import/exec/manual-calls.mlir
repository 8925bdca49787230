// A manual computation whose body calls private functions, as JAX prints
// jax.nn.relu and jitted helpers in a shard_map: the importer inlines the
// calls (a callee's own calls and collectives too) and drops the callees.
// Before, the call survived into the shard_map and the variance check
// refused it ("returns tensors in a manual region; inline the callee
// first").
// RUN: trellis-opt %s --trellis-import-stablehlo | FileCheck %s --check-prefix=IR
// RUN: rm -rf %t && trellis-run %s --random 4 --reference --save-inputs --output-dir %t --quiet | FileCheck %s
// RUN: %python %S/check_jax_forms.py manual-calls %t | FileCheck %s --check-prefix=NP
// IR-NOT: call
// IR: spmd.shard_map @mesh in_specs
// IR: spmd.psum %{{.*}} over ["x"]
// IR-NOT: func.func private
// CHECK-COUNT-2: match
// NP: manual-calls: 2 results equal numpy
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x4xf32> {jax.result_info = "[0]", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<2x4xf32> {jax.result_info = "[1]"}) {
    %0:2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>] manual_axes={"x"} (%arg1: tensor<2x4xf32>) {
      %1 = func.call @relu(%arg1) : (tensor<2x4xf32>) -> tensor<2x4xf32>
      %2 = func.call @total(%arg1) : (tensor<2x4xf32>) -> tensor<2x4xf32>
      sdy.return %1, %2 : tensor<2x4xf32>, tensor<2x4xf32>
    } : (tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<2x4xf32>)
    return %0#0, %0#1 : tensor<8x4xf32>, tensor<2x4xf32>
  }
  func.func private @relu(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x4xf32>
    return %1 : tensor<2x4xf32>
  }
  func.func private @total(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
    %0 = func.call @relu(%arg0) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %1 = stablehlo.add %0, %0 : tensor<2x4xf32>
    %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %2 : tensor<2x4xf32>
  }
}
