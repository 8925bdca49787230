module @jit_remat_mlp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg1: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<16x16xf32> {jax.result_info = "result[0]"}, tensor<16x16xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %1 = stablehlo.tanh %0 : tensor<8x16xf32>
    %2 = stablehlo.dot_general %1, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %3 = stablehlo.tanh %2 : tensor<8x16xf32>
    %4 = stablehlo.dot_general %3, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %5 = stablehlo.tanh %4 : tensor<8x16xf32>
    %6 = stablehlo.dot_general %5, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %7 = stablehlo.tanh %6 : tensor<8x16xf32>
    %8 = stablehlo.multiply %7, %7 : tensor<8x16xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %10 = stablehlo.multiply %9, %7 : tensor<8x16xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%8 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %13 = stablehlo.multiply %12, %10 : tensor<8x16xf32>
    %14:4 = stablehlo.optimization_barrier %arg0, %arg1, %3, %13 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
    %15 = stablehlo.dot_general %14#2, %14#0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %16 = stablehlo.tanh %15 : tensor<8x16xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %18 = stablehlo.subtract %17, %16 : tensor<8x16xf32>
    %19 = stablehlo.dot_general %16, %14#1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %20 = stablehlo.tanh %19 : tensor<8x16xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %22 = stablehlo.subtract %21, %20 : tensor<8x16xf32>
    %23 = stablehlo.multiply %14#3, %22 : tensor<8x16xf32>
    %24 = stablehlo.multiply %23, %20 : tensor<8x16xf32>
    %25 = stablehlo.add %23, %24 : tensor<8x16xf32>
    %26 = stablehlo.dot_general %25, %16, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
    %27 = stablehlo.transpose %26, dims = [1, 0] : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %28 = stablehlo.dot_general %25, %14#1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %29 = stablehlo.multiply %28, %18 : tensor<8x16xf32>
    %30 = stablehlo.multiply %29, %16 : tensor<8x16xf32>
    %31 = stablehlo.add %29, %30 : tensor<8x16xf32>
    %32 = stablehlo.dot_general %31, %14#2, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
    %33 = stablehlo.transpose %32, dims = [1, 0] : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %34 = stablehlo.dot_general %31, %14#0, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %35:4 = stablehlo.optimization_barrier %arg0, %arg1, %arg2, %34 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
    %36 = stablehlo.dot_general %35#2, %35#0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %37 = stablehlo.tanh %36 : tensor<8x16xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %39 = stablehlo.subtract %38, %37 : tensor<8x16xf32>
    %40 = stablehlo.dot_general %37, %35#1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %41 = stablehlo.tanh %40 : tensor<8x16xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %43 = stablehlo.subtract %42, %41 : tensor<8x16xf32>
    %44 = stablehlo.multiply %35#3, %43 : tensor<8x16xf32>
    %45 = stablehlo.multiply %44, %41 : tensor<8x16xf32>
    %46 = stablehlo.add %44, %45 : tensor<8x16xf32>
    %47 = stablehlo.dot_general %46, %37, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
    %48 = stablehlo.transpose %47, dims = [1, 0] : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %49 = stablehlo.dot_general %46, %35#1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %50 = stablehlo.multiply %49, %39 : tensor<8x16xf32>
    %51 = stablehlo.multiply %50, %37 : tensor<8x16xf32>
    %52 = stablehlo.add %50, %51 : tensor<8x16xf32>
    %53 = stablehlo.dot_general %52, %35#2, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
    %54 = stablehlo.transpose %53, dims = [1, 0] : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %55 = stablehlo.add %33, %54 : tensor<16x16xf32>
    %56 = stablehlo.add %27, %48 : tensor<16x16xf32>
    return %55, %56 : tensor<16x16xf32>, tensor<16x16xf32>
  }
}
