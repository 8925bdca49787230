// GSPMD manual regions (shard_map as JAX printed it before Shardy): the ops
// between @SPMDFullToShardShape and @SPMDShardToFullShape become one
// spmd.shard_map per connected region, called bodies are inlined, and
// constants read from outside are cloned in.
// RUN: trellis-opt %s --split-input-file --trellis-import-stablehlo | FileCheck %s

// Two regions, the second reading the first's global result: two
// shard_maps in order. The constant is cloned into the first body, the
// body written inline (no call) is moved.
// CHECK: trellis.mesh @gspmd_mesh = <["x0"=2, "x1"=2]>
// CHECK-LABEL: func.func @two_regions
// CHECK: %[[A:.*]] = trellis.sharding_constraint %arg0 to <@gspmd_mesh, [{"x0", "x1"}]>
// CHECK: %[[M1:.*]] = spmd.shard_map @gspmd_mesh in_specs = {{\[}}[{"x0", "x1"}]] out_specs = {{\[}}[{"x0", "x1"}]] (%[[A]])
// CHECK-NEXT: ^bb0(%[[L:.*]]: tensor<2xf32>):
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[L]], %[[C]] : tensor<2xf32>
// CHECK-NEXT: spmd.yield %[[P]]
// CHECK: %[[B:.*]] = trellis.sharding_constraint %[[M1]] to <@gspmd_mesh, [{}]>
// CHECK: spmd.shard_map @gspmd_mesh in_specs = {{\[}}[{}]] out_specs = {{\[}}[{}]] (%[[B]])
// CHECK: spmd.psum %{{.*}} over ["x0", "x1"]
module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @two_regions(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}) -> tensor<8xf32> {
    %cst = stablehlo.constant dense<2.0> : tensor<2xf32>
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
    %2 = stablehlo.multiply %1, %cst : tensor<2xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<2xf32>) -> tensor<2xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {backend_config = "", mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<2xf32>) -> tensor<8xf32>
    %5 = stablehlo.custom_call @Sharding(%4) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<8xf32>
    %6 = stablehlo.custom_call @SPMDFullToShardShape(%5) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<8xf32>
    %7 = call @shmap_body(%6) : (tensor<8xf32>) -> tensor<8xf32>
    %8 = stablehlo.custom_call @Sharding(%7) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<8xf32>
    %9 = stablehlo.custom_call @SPMDShardToFullShape(%8) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<8xf32>
    return %9 : tensor<8xf32>
  }
  // Inlined and then dropped: it has no other caller.
  // CHECK-NOT: func.func private @shmap_body
  func.func private @shmap_body(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// Only replicated shardings: the mesh comes from mhlo.num_partitions, in
// prime axes (6 = 2 x 3); the groups {0, 3}, {1, 4}, {2, 5} are axis x0.
// Two values leave one region: two results.
// CHECK: trellis.mesh @gspmd_mesh = <["x0"=2, "x1"=3]>
// CHECK-LABEL: func.func @replicated_only
// CHECK: %{{.*}}:2 = spmd.shard_map @gspmd_mesh in_specs = {{\[}}[{}]] out_specs = {{\[}}[{}], [{}]]
// CHECK: spmd.pmax %{{.*}} over ["x0"]
module attributes {mhlo.num_partitions = 6 : i32} {
  func.func @replicated_only(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 3], [1, 4], [2, 5]]> : tensor<3x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    %3 = stablehlo.custom_call @SPMDShardToFullShape(%2) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
    %4 = stablehlo.add %2, %2 : tensor<4xf32>
    %5 = stablehlo.custom_call @SPMDShardToFullShape(%4) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
    return %3, %5 : tensor<4xf32>, tensor<4xf32>
  }
}
