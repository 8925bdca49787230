module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x8xf32>) -> tensor<2x2xf32>
    %2 = call @shmap_body(%1) : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<2x2xf32>) -> tensor<4x8xf32>
    return %4 : tensor<4x8xf32>
  }
  func.func private @shmap_body(%arg0: tensor<2x2xf32>) -> (tensor<2x2xf32> {jax.result_info = "[('data',), ('model',)]"}) {
    %c = stablehlo.constant dense<1> : tensor<ui32>
    %c_0 = stablehlo.constant dense<4> : tensor<ui32>
    %0 = stablehlo.partition_id : tensor<ui32>
    %1 = stablehlo.divide %0, %c : tensor<ui32>
    %2 = stablehlo.remainder %1, %c_0 : tensor<ui32>
    %3 = stablehlo.convert %2 : (tensor<ui32>) -> tensor<i32>
    %4 = stablehlo.convert %3 : (tensor<i32>) -> tensor<f32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
    %6 = stablehlo.add %arg0, %5 : tensor<2x2xf32>
    %c_1 = stablehlo.constant dense<4> : tensor<ui32>
    %c_2 = stablehlo.constant dense<2> : tensor<ui32>
    %7 = stablehlo.partition_id : tensor<ui32>
    %8 = stablehlo.divide %7, %c_1 : tensor<ui32>
    %9 = stablehlo.remainder %8, %c_2 : tensor<ui32>
    %10 = stablehlo.convert %9 : (tensor<ui32>) -> tensor<i32>
    %11 = stablehlo.convert %10 : (tensor<i32>) -> tensor<f32>
    %cst = stablehlo.constant dense<1.000000e+01> : tensor<f32>
    %12 = stablehlo.multiply %cst, %11 : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
    %14 = stablehlo.add %6, %13 : tensor<2x2xf32>
    return %14 : tensor<2x2xf32>
  }
}
