module @jit_rope attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<2x8x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {"model"}, {}]>}, %arg1: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<2x8x4x8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.iota dim = 0 : tensor<4xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %2 = stablehlo.multiply %1, %0 : tensor<4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %4 = stablehlo.add %3, %2 : tensor<4xf32>
    %5 = stablehlo.negate %4 : tensor<4xf32>
    %cst_1 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %7 = stablehlo.divide %5, %6 : tensor<4xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %9 = stablehlo.power %8, %7 : tensor<4xf32>
    %10 = stablehlo.convert %arg1 : (tensor<8xi32>) -> tensor<8xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %12 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x4xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<8x4xf32>
    %15 = stablehlo.multiply %13, %14 : tensor<8x4xf32>
    %16 = stablehlo.cosine %15 : tensor<8x4xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [1, 3] : (tensor<8x4xf32>) -> tensor<1x8x1x4xf32>
    %18 = stablehlo.sine %15 : tensor<8x4xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [1, 3] : (tensor<8x4xf32>) -> tensor<1x8x1x4xf32>
    %20 = stablehlo.slice %arg0 [0:2, 0:8, 0:4, 0:8:2] : (tensor<2x8x4x8xf32>) -> tensor<2x8x4x4xf32>
    %21 = stablehlo.slice %arg0 [0:2, 0:8, 0:4, 1:8:2] : (tensor<2x8x4x8xf32>) -> tensor<2x8x4x4xf32>
    %22 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2, 3] : (tensor<1x8x1x4xf32>) -> tensor<2x8x4x4xf32>
    %23 = stablehlo.multiply %20, %22 : tensor<2x8x4x4xf32>
    %24 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2, 3] : (tensor<1x8x1x4xf32>) -> tensor<2x8x4x4xf32>
    %25 = stablehlo.multiply %21, %24 : tensor<2x8x4x4xf32>
    %26 = stablehlo.subtract %23, %25 : tensor<2x8x4x4xf32>
    %27 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2, 3] : (tensor<1x8x1x4xf32>) -> tensor<2x8x4x4xf32>
    %28 = stablehlo.multiply %20, %27 : tensor<2x8x4x4xf32>
    %29 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2, 3] : (tensor<1x8x1x4xf32>) -> tensor<2x8x4x4xf32>
    %30 = stablehlo.multiply %21, %29 : tensor<2x8x4x4xf32>
    %31 = stablehlo.add %28, %30 : tensor<2x8x4x4xf32>
    %32 = stablehlo.broadcast_in_dim %26, dims = [0, 1, 2, 3] : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x4x1xf32>
    %33 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2, 3] : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x4x1xf32>
    %34 = stablehlo.concatenate %32, %33, dim = 4 : (tensor<2x8x4x4x1xf32>, tensor<2x8x4x4x1xf32>) -> tensor<2x8x4x4x2xf32>
    %35 = stablehlo.reshape %34 : (tensor<2x8x4x4x2xf32>) -> tensor<2x8x4x8xf32>
    return %35 : tensor<2x8x4x8xf32>
  }
}
