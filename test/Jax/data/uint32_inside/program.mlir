module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xi32>) -> (tensor<16xi32> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<16xi32>) -> tensor<16xui32>
    %c = stablehlo.constant dense<2654435761> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<16xui32>
    %2 = stablehlo.multiply %0, %1 : tensor<16xui32>
    %c_0 = stablehlo.constant dense<7> : tensor<ui32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<16xui32>
    %4 = stablehlo.shift_right_logical %2, %3 : tensor<16xui32>
    %5 = stablehlo.convert %4 : (tensor<16xui32>) -> tensor<16xi32>
    %6 = stablehlo.convert %arg0 : (tensor<16xi32>) -> tensor<16xui32>
    %c_1 = stablehlo.constant dense<7> : tensor<ui32>
    %7 = call @floor_divide(%6, %c_1) : (tensor<16xui32>, tensor<ui32>) -> tensor<16xui32>
    %8 = stablehlo.convert %7 : (tensor<16xui32>) -> tensor<16xi32>
    %9 = stablehlo.add %5, %8 : tensor<16xi32>
    return %9 : tensor<16xi32>
  }
  func.func private @floor_divide(%arg0: tensor<16xui32>, %arg1: tensor<ui32>) -> tensor<16xui32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<ui32>) -> tensor<16xui32>
    %1 = stablehlo.divide %arg0, %0 : tensor<16xui32>
    return %1 : tensor<16xui32>
  }
}
