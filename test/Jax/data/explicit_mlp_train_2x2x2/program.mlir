module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "fsdp"=2, "model"=2]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "fsdp", size = 2 : i64}, {name = "model", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp"}, {}]>}) -> (tensor<f32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<16x16xf32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"data", "fsdp"}, {"model"}]> : tensor<8x16xf32>
    %2 = stablehlo.tanh %1 : tensor<8x16xf32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{"data", "fsdp"}, {"model"}]> : tensor<8x16xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = sdy.sharding_constraint %cst <@mesh, []> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %6 = sdy.sharding_constraint %5 <@mesh, [{"data", "fsdp"}, {"model"}]> : tensor<8x16xf32>
    %7 = stablehlo.subtract %6, %3 : tensor<8x16xf32>
    %8 = sdy.sharding_constraint %7 <@mesh, [{"data", "fsdp"}, {"model"}]> : tensor<8x16xf32>
    %9 = stablehlo.multiply %3, %3 : tensor<8x16xf32>
    %10 = sdy.sharding_constraint %9 <@mesh, [{"data", "fsdp"}, {"model"}]> : tensor<8x16xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %12 = sdy.sharding_constraint %11 <@mesh, [{"data", "fsdp"}, {"model"}]> : tensor<8x16xf32>
    %13 = stablehlo.multiply %12, %3 : tensor<8x16xf32>
    %14 = sdy.sharding_constraint %13 <@mesh, [{"data", "fsdp"}, {"model"}]> : tensor<8x16xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.reduce(%10 init: %cst_1) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %16 = sdy.sharding_constraint %15 <@mesh, []> : tensor<f32>
    %cst_2 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %17 = sdy.sharding_constraint %cst_2 <@mesh, []> : tensor<f32>
    %18 = stablehlo.divide %16, %17 : tensor<f32>
    %19 = sdy.sharding_constraint %18 <@mesh, []> : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %20 = sdy.sharding_constraint %cst_3 <@mesh, []> : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %21 = sdy.sharding_constraint %cst_4 <@mesh, []> : tensor<f32>
    %22 = stablehlo.divide %20, %21 : tensor<f32>
    %23 = sdy.sharding_constraint %22 <@mesh, []> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %25 = sdy.sharding_constraint %24 <@mesh, [{"data", "fsdp"}, {"model"}]> : tensor<8x16xf32>
    %26 = stablehlo.multiply %25, %14 : tensor<8x16xf32>
    %27 = sdy.sharding_constraint %26 <@mesh, [{"data", "fsdp"}, {"model"}]> : tensor<8x16xf32>
    %28 = stablehlo.multiply %27, %8 : tensor<8x16xf32>
    %29 = sdy.sharding_constraint %28 <@mesh, [{"data", "fsdp"}, {"model"}]> : tensor<8x16xf32>
    %30 = stablehlo.multiply %29, %3 : tensor<8x16xf32>
    %31 = sdy.sharding_constraint %30 <@mesh, [{"data", "fsdp"}, {"model"}]> : tensor<8x16xf32>
    %32 = stablehlo.add %29, %31 : tensor<8x16xf32>
    %33 = sdy.sharding_constraint %32 <@mesh, [{"data", "fsdp"}, {"model"}]> : tensor<8x16xf32>
    %34 = stablehlo.dot_general %33, %arg1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
    %35 = sdy.sharding_constraint %34 <@mesh, [{"model"}, {}]> : tensor<16x16xf32>
    %36 = stablehlo.transpose %35, dims = [1, 0] : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %37 = sdy.sharding_constraint %36 <@mesh, [{}, {"model"}]> : tensor<16x16xf32>
    return %19, %37 : tensor<f32>, tensor<16x16xf32>
  }
}
