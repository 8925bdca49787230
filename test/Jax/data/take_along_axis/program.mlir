module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x8xf32>, %arg1: tensor<6x3xi32>) -> (tensor<6x3xf32> {jax.result_info = "result"}) {
    %0 = call @take_along_axis(%arg0, %arg1) : (tensor<6x8xf32>, tensor<6x3xi32>) -> tensor<6x3xf32>
    return %0 : tensor<6x3xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<6x8xf32>, %arg1: tensor<6x3xi32>) -> tensor<6x3xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6x3xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<6x3xi32>, tensor<6x3xi32>) -> tensor<6x3xi1>
    %c_0 = stablehlo.constant dense<8> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<6x3xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<6x3xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<6x3xi1>, tensor<6x3xi32>
    %5 = stablehlo.reshape %4 : (tensor<6x3xi32>) -> tensor<6x3x1xi32>
    %c_1 = stablehlo.constant dense<7> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<6x3x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<6x3x1xi32>, tensor<6x3x1xi32>) -> tensor<6x3x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<6x3x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<6x3x1xi32>, tensor<6x3x1xi32>) -> tensor<6x3x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<6x3x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<6x3x1xi1>, tensor<i1>) -> tensor<6x3xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<6x8xf32>, tensor<6x3x1xi32>) -> tensor<6x3xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<6x3xi1>, tensor<6x3xf32>
    return %15 : tensor<6x3xf32>
  }
}
