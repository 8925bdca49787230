module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<16x4xf32>) -> (tensor<16x4xf32> {jax.result_info = "result"}) {
    %0 = call @_inner_with_constraint(%arg0) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %2 = stablehlo.add %0, %1 : tensor<16x4xf32>
    return %2 : tensor<16x4xf32>
  }
  func.func private @_inner_with_constraint(%arg0: tensor<16x4xf32>) -> tensor<16x4xf32> {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<16x4xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"data"}, {}]> : tensor<16x4xf32>
    return %2 : tensor<16x4xf32>
  }
}
