module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"data"}, {"model"}]>] out_shardings=[<@mesh, [{"data"}, {"model"}]>] manual_axes={"data", "model"} (%arg1: tensor<2x2xf32>) {
      %c = stablehlo.constant dense<1> : tensor<ui32>
      %c_0 = stablehlo.constant dense<4> : tensor<ui32>
      %1 = stablehlo.partition_id : tensor<ui32>
      %2 = stablehlo.divide %1, %c : tensor<ui32>
      %3 = stablehlo.remainder %2, %c_0 : tensor<ui32>
      %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
      %5 = stablehlo.convert %4 : (tensor<i32>) -> tensor<f32>
      %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
      %7 = stablehlo.add %arg1, %6 : tensor<2x2xf32>
      %c_1 = stablehlo.constant dense<4> : tensor<ui32>
      %c_2 = stablehlo.constant dense<2> : tensor<ui32>
      %8 = stablehlo.partition_id : tensor<ui32>
      %9 = stablehlo.divide %8, %c_1 : tensor<ui32>
      %10 = stablehlo.remainder %9, %c_2 : tensor<ui32>
      %11 = stablehlo.convert %10 : (tensor<ui32>) -> tensor<i32>
      %12 = stablehlo.convert %11 : (tensor<i32>) -> tensor<f32>
      %cst = stablehlo.constant dense<1.000000e+01> : tensor<f32>
      %13 = stablehlo.multiply %cst, %12 : tensor<f32>
      %14 = stablehlo.broadcast_in_dim %13, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
      %15 = stablehlo.add %7, %14 : tensor<2x2xf32>
      sdy.return %15 : tensor<2x2xf32>
    } : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}
