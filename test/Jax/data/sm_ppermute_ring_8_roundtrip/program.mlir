#loc1 = loc("Arg_0.2")
#loc3 = loc("Arg_0.3")
module @jit__lambda attributes {mhlo.cross_program_prefetches = [], mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22data\22=8]>}"}, mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} {
  func.func private @xla.sdy.manual_computation_body.1(%arg0: tensor<2x4xf32> loc("Arg_0.2")) -> tensor<2x4xf32> {
    %0 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]]> : tensor<8x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32> loc(#loc2)
    return %0 : tensor<2x4xf32> loc(#loc)
  } loc(#loc)
  func.func @main(%arg0: tensor<16x4xf32> loc("Arg_0.3")) -> tensor<16x4xf32> {
    %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22data\22}, {}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22data\22}>"}} : (tensor<16x4xf32>) -> tensor<2x4xf32> loc(#loc4)
    %1 = call @xla.sdy.manual_computation_body.1(%0) {mhlo.frontend_attributes = {inlineable = "false"}} : (tensor<2x4xf32>) -> tensor<2x4xf32> loc(#loc5)
    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22data\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22data\22}, {}]>]>"}} : (tensor<2x4xf32>) -> tensor<16x4xf32> loc(#loc6)
    return %2 : tensor<16x4xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("collective-permute.1")
#loc4 = loc("custom-call.2")
#loc5 = loc("call.1")
#loc6 = loc("custom-call.3")
