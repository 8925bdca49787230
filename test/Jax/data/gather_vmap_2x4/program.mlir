module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x10x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {"model"}]>}, %arg1: tensor<8x3xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<8x3x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x3xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<8x3xi32>, tensor<8x3xi32>) -> tensor<8x3xi1>
    %c_0 = stablehlo.constant dense<10> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x3xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<8x3xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<8x3xi1>, tensor<8x3xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<8x3xi32>) -> tensor<8x3x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 8>}> : (tensor<8x10x8xf32>, tensor<8x3x1xi32>) -> tensor<8x3x8xf32>
    return %6 : tensor<8x3x8xf32>
  }
}
