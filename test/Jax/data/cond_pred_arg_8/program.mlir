module @jit_cond_index_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<16x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.reshape %arg0 : (tensor<1xi32>) -> tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare GT, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %2 = stablehlo.convert %1 : (tensor<i1>) -> tensor<i32>
    %3 = "stablehlo.case"(%2) ({
      %4 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>
      %5 = stablehlo.dot_general %arg1, %4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
      %6 = stablehlo.negate %5 : tensor<16x16xf32>
      stablehlo.return %6 : tensor<16x16xf32>
    }, {
      %4 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>
      %5 = stablehlo.dot_general %arg1, %4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
      stablehlo.return %5 : tensor<16x16xf32>
    }) : (tensor<i32>) -> tensor<16x16xf32>
    return %3 : tensor<16x16xf32>
  }
}
