module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8xf16>, %arg1: tensor<8x8xf16>) -> (tensor<8x8xf16> {jax.result_info = "result[0]"}, tensor<8x8xf16> {jax.result_info = "result[1]"}, tensor<8x8xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8x8xf16>
    %1 = stablehlo.add %0, %arg0 : tensor<8x8xf16>
    %2 = stablehlo.abs %arg0 : tensor<8x8xf16>
    %3 = stablehlo.sqrt %2 : tensor<8x8xf16>
    %4 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<8x8xf16>) -> tensor<8x8xf16>
    %5 = stablehlo.dot_general %arg0, %4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8xf16>, tensor<8x8xf16>) -> tensor<8x8xf16>
    %6 = stablehlo.convert %5 : (tensor<8x8xf16>) -> tensor<8x8xf32>
    return %1, %3, %6 : tensor<8x8xf16>, tensor<8x8xf16>, tensor<8x8xf32>
  }
}
