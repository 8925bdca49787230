module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<8x10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<8x3xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg2: tensor<8x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<8x10xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x3xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<8x3xi32>, tensor<8x3xi32>) -> tensor<8x3xi1>
    %c_0 = stablehlo.constant dense<10> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x3xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<8x3xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<8x3xi1>, tensor<8x3xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<8x3xi32>) -> tensor<8x3x1xi32>
    %6 = "stablehlo.scatter"(%arg0, %5, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %7 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %7 : tensor<f32>
    }) : (tensor<8x10xf32>, tensor<8x3x1xi32>, tensor<8x3xf32>) -> tensor<8x10xf32>
    return %6 : tensor<8x10xf32>
  }
}
