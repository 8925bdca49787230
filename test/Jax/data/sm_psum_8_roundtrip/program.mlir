#loc1 = loc("Arg_0.3")
#loc2 = loc("Arg_1.1")
#loc4 = loc("Arg_0.4")
#loc6 = loc("all-reduce.1")
#loc7 = loc("Arg_0.5")
module @jit__lambda attributes {mhlo.cross_program_prefetches = [], mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22data\22=8]>}"}, mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} {
  func.func private @region_0.1(%arg0: tensor<f32> loc("Arg_0.3"), %arg1: tensor<f32> loc("Arg_1.1")) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32> loc(#loc3)
    return %0 : tensor<f32> loc(#loc)
  } loc(#loc)
  func.func private @xla.sdy.manual_computation_body.2(%arg0: tensor<2x8xf32> loc("Arg_0.4")) -> tensor<2x8xf32> {
    %0 = stablehlo.sine %arg0 : tensor<2x8xf32> loc(#loc5)
    %1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
    ^bb0(%arg1: tensor<f32> loc("all-reduce.1"), %arg2: tensor<f32> loc("all-reduce.1")):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32> loc(#loc3)
      stablehlo.return %2 : tensor<f32> loc(#loc)
    }) : (tensor<2x8xf32>) -> tensor<2x8xf32> loc(#loc6)
    return %1 : tensor<2x8xf32> loc(#loc)
  } loc(#loc)
  func.func @main(%arg0: tensor<16x8xf32> loc("Arg_0.5")) -> tensor<2x8xf32> {
    %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22data\22}, {}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22data\22}>"}} : (tensor<16x8xf32>) -> tensor<2x8xf32> loc(#loc8)
    %1 = call @xla.sdy.manual_computation_body.2(%0) {mhlo.frontend_attributes = {inlineable = "false"}} : (tensor<2x8xf32>) -> tensor<2x8xf32> loc(#loc9)
    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22data\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{}, {}]>]>"}} : (tensor<2x8xf32>) -> tensor<2x8xf32> loc(#loc10)
    return %2 : tensor<2x8xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("add.1")
#loc5 = loc("sine.1")
#loc8 = loc("custom-call.2")
#loc9 = loc("call.1")
#loc10 = loc("custom-call.3")
