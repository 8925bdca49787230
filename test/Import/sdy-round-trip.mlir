// Shardy's round-trip form: sdy attributes printed into xla.sdy.* strings
// under mhlo.frontend_attributes. The importer reads them back; the Shardy
// string wins over the GSPMD one next to it.
// RUN: trellis-opt %s --split-input-file --trellis-import-stablehlo | FileCheck %s

// Current form (\22 for each quote): meshes, argument shardings, an op's
// sharding, a constraint, the result's sharding (also read elsewhere:
// that use gets the plain value).
// CHECK: trellis.mesh @mesh = <["x"=2, "y"=2]>
// CHECK: trellis.mesh @other = <["z"=4]>
// CHECK-LABEL: func.func public @main
// CHECK-SAME: %arg0: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {}]>}
// CHECK-SAME: %arg1: tensor<8x16xf32> {trellis.name = "b", trellis.sharding = #trellis.sharding<@mesh, [{"y", ?}, {?}]>}
// CHECK-SAME: -> (tensor<8x16xf32> {trellis.name = "result", trellis.sharding = #trellis.sharding<@mesh, [{}, {"y"}]>}, tensor<8x16xf32>)
// CHECK: %[[ADD:.*]] = arith.addf %arg0, %arg1
// CHECK: %[[C1:.*]] = trellis.sharding_constraint %[[ADD]] to <@mesh, [{"x", "y"}, {}]>
// CHECK: %[[C2:.*]] = trellis.sharding_constraint %[[C1]] to <@mesh, [{}, {"x"}]>
// CHECK: return %[[C2]], %[[C2]]
module @jit_f attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2, \22y\22=2]>, other = #sdy.mesh<[\22z\22=4]>}"}, mhlo.num_partitions = 4 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22x\22}, {}]>"}, mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"},
                         %arg1: tensor<8x16xf32> {jax.arg_info = "b", mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22y\22, ?}, {?}]>"}, mhlo.sharding = "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"})
      -> (tensor<8x16xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, tensor<8x16xf32>) {
    %0 = stablehlo.add %arg0, %arg1 {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22x\22, \22y\22}, {}]>]>"}, mhlo.sharding = "{devices=[4,1]<=[4]}"} : tensor<8x16xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{}, {\22x\22}]>]>"}, mhlo.sharding = "{devices=[1,2,2]<=[4] last_tile_dim_replicate}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %2 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{}, {\22y\22}]>]>"}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %2, %1 : tensor<8x16xf32>, tensor<8x16xf32>
  }
}

// -----

// Older exporters: each quote escaped once more (\\\22), the manual
// computation's attributes on the call and its shape custom calls bare;
// the oldest: each mesh a string of its own. A partially manual
// computation.
// CHECK: trellis.mesh @mesh = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func public @old
// CHECK: spmd.shard_map @mesh manual_axes = ["a"] in_specs = {{\[}}[{"a"}]] out_specs = {{\[}}[{"a"}]]
// CHECK: spmd.psum %{{.*}} over ["a"]
// CHECK-NOT: manual_computation_body
module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = \22#sdy.mesh<[\\22a\\22=2, \\22b\\22=2]>\22}"}, mhlo.num_partitions = 4 : i32} {
  func.func public @old(%arg0: tensor<8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\\\22a\\\22}]>"}}) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) : (tensor<8xf32>) -> tensor<4xf32>
    %1 = call @xla.sdy.manual_computation_body_0(%0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\\\22a\\\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\\\22a\\\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\\\22a\\\22}]>]>"}} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) : (tensor<4xf32>) -> tensor<8xf32>
    return %2 : tensor<8xf32>
  }
  func.func private @xla.sdy.manual_computation_body_0(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// A manual computation inside another's body: both become shard_maps.
// CHECK-LABEL: func.func public @nested
// CHECK: spmd.shard_map @mesh manual_axes = ["a"] in_specs = {{\[}}[{"a"}]] out_specs = {{\[}}[{"a"}]]
// CHECK: spmd.shard_map @mesh manual_axes = ["b"] in_specs = {{\[}}[{"b"}]] out_specs = {{\[}}[{"b"}]]
// CHECK: spmd.psum %{{.*}} over ["b"]
module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2, \22b\22=2]>}"}, mhlo.num_partitions = 4 : i32} {
  func.func public @nested(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>"}} : (tensor<8xf32>) -> tensor<4xf32>
    %1 = call @xla.sdy.manual_computation_body(%0) : (tensor<4xf32>) -> tensor<4xf32>
    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}]>]>"}} : (tensor<4xf32>) -> tensor<8xf32>
    return %2 : tensor<8xf32>
  }
  func.func @xla.sdy.manual_computation_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>"}} : (tensor<4xf32>) -> tensor<2xf32>
    %1 = call @xla.sdy.manual_computation_body_0(%0) : (tensor<2xf32>) -> tensor<2xf32>
    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}]>]>"}} : (tensor<2xf32>) -> tensor<4xf32>
    return %2 : tensor<4xf32>
  }
  func.func @xla.sdy.manual_computation_body_0(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
