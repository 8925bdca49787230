module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10x4xf32>, %arg1: tensor<6xi32>) -> (tensor<6x4xf32> {jax.result_info = "result[0]"}, tensor<6x4xf32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_0 = stablehlo.constant dense<10> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<6xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<6xi1>, tensor<6xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<10x4xf32>, tensor<6x1xi32>) -> tensor<6x4xf32>
    %7 = call @_take(%arg0, %arg1) : (tensor<10x4xf32>, tensor<6xi32>) -> tensor<6x4xf32>
    return %6, %7 : tensor<6x4xf32>, tensor<6x4xf32>
  }
  func.func private @_take(%arg0: tensor<10x4xf32>, %arg1: tensor<6xi32>) -> tensor<6x4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<10x4xf32>, tensor<6x1xi32>) -> tensor<6x4xf32>
    return %1 : tensor<6x4xf32>
  }
}
