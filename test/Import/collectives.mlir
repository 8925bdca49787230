// Collectives in a manual computation: partition-id groups and pairs
// become Trellis collectives over the mesh axes that produce them, in the
// order the groups list their members.
// RUN: trellis-opt %s --trellis-import-stablehlo | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @groups
func.func @groups(%a: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
  // CHECK: spmd.shard_map @mesh manual_axes = ["x"] in_specs = {{\[}}[{"x"}, {}]] out_specs = {{\[}}[{"x"}, {}], [{"x"}, {}], [{"x"}, {}]]
  %0:3 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>] manual_axes={"x"} (%b: tensor<4x4xf32>) {
    // CHECK: spmd.psum %{{.*}} over ["x"] : tensor<4x4xf32>
    %1 = "stablehlo.all_reduce"(%b) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    // CHECK: spmd.pmax %{{.*}} over ["x"] : tensor<4x4xf32>
    %2 = "stablehlo.all_reduce"(%b) <{replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.maximum %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    // CHECK: spmd.ppermute %{{.*}} over ["x"] pairs {{\[}}[0, 1], [1, 0]] : tensor<4x4xf32>
    %3 = "stablehlo.collective_permute"(%b) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, source_target_pairs = dense<[[0, 2], [2, 0], [1, 3], [3, 1]]> : tensor<4x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    sdy.return %1, %2, %3 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>)
  return %0#0, %0#1, %0#2 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
}

// CHECK-LABEL: func.func @two_axes
func.func @two_axes(%a: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x16xf32>) {
  %0:2 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x", "y"}, {}]>, <@mesh, [{"x", "y"}, {}]>] manual_axes={"x", "y"} (%b: tensor<2x4xf32>) {
    // Members listed y-major: the group order is ("y", "x").
    // CHECK: spmd.all_gather %{{.*}} over ["y", "x"] dim 1 tiled : tensor<2x4xf32> -> tensor<2x16xf32>
    %1 = "stablehlo.all_gather"(%b) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 2, 1, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2x4xf32>) -> tensor<2x16xf32>
    // CHECK: spmd.all_to_all %{{.*}} over ["x", "y"] split 1 concat 0 : tensor<2x16xf32> -> tensor<8x4xf32>
    %2 = "stablehlo.all_to_all"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<2x16xf32>) -> tensor<8x4xf32>
    // CHECK: spmd.psum_scatter %{{.*}} over ["x", "y"] dim 0 tiled : tensor<8x4xf32> -> tensor<2x4xf32>
    %3 = "stablehlo.reduce_scatter"(%2) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8x4xf32>) -> tensor<2x4xf32>
    // CHECK-NOT: optimization_barrier
    // CHECK: spmd.yield
    %4 = stablehlo.optimization_barrier %3 : tensor<2x4xf32>
    sdy.return %4, %1 : tensor<2x4xf32>, tensor<2x16xf32>
  } : (tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x16xf32>)
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<8x16xf32>
}
