module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xi8>, %arg1: tensor<16xi16>) -> (tensor<16xi16> {jax.result_info = "result[0]"}, tensor<16xi8> {jax.result_info = "result[1]"}, tensor<i32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<3> : tensor<i8>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i8>) -> tensor<16xi8>
    %1 = stablehlo.multiply %arg0, %0 : tensor<16xi8>
    %2 = stablehlo.convert %1 : (tensor<16xi8>) -> tensor<16xi16>
    %3 = stablehlo.add %2, %arg1 : tensor<16xi16>
    %4 = stablehlo.add %arg0, %arg0 : tensor<16xi8>
    %5 = stablehlo.convert %arg0 : (tensor<16xi8>) -> tensor<16xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.reduce(%5 init: %c_0) applies stablehlo.add across dimensions = [0] : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    return %3, %4, %6 : tensor<16xi16>, tensor<16xi8>, tensor<i32>
  }
}
