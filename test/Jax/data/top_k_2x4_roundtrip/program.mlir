#loc1 = loc("Arg_0.1")
module @jit__lambda attributes {mhlo.cross_program_prefetches = [], mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22data\22=2, \22model\22=4]>}"}, mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} {
  func.func @main(%arg0: tensor<8x16xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22data\22}, {}]>"}, mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} loc("Arg_0.1")) -> (tensor<8x2xf32>, tensor<8x2xi32>) {
    %values, %indices = mhlo.topk(%arg0, k = 2) : tensor<8x16xf32> -> (tensor<8x2xf32>, tensor<8x2xi32>) loc(#loc2)
    return %values, %indices : tensor<8x2xf32>, tensor<8x2xi32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("topk.1")
