module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xi64>, %arg1: tensor<16xi64>) -> (tensor<16xi64> {jax.result_info = "result[0]"}, tensor<16xi64> {jax.result_info = "result[1]"}, tensor<16xi64> {jax.result_info = "result[2]"}, tensor<16xi32> {jax.result_info = "result[3]"}, tensor<i64> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<16xi64>
    %c = stablehlo.constant dense<1099511627776> : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<16xi64>
    %2 = stablehlo.add %0, %1 : tensor<16xi64>
    %c_0 = stablehlo.constant dense<7> : tensor<i64>
    %3 = call @floor_divide(%arg0, %c_0) : (tensor<16xi64>, tensor<i64>) -> tensor<16xi64>
    %4 = call @cumsum(%arg0) : (tensor<16xi64>) -> tensor<16xi64>
    %5 = stablehlo.convert %arg0 : (tensor<16xi64>) -> tensor<16xi32>
    %6 = stablehlo.compare GT, %arg0, %arg1, SIGNED : (tensor<16xi64>, tensor<16xi64>) -> tensor<16xi1>
    %7 = stablehlo.convert %6 : (tensor<16xi1>) -> tensor<16xi32>
    %8 = stablehlo.convert %7 : (tensor<16xi32>) -> tensor<16xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %9 = stablehlo.reduce(%8 init: %c_1) applies stablehlo.add across dimensions = [0] : (tensor<16xi64>, tensor<i64>) -> tensor<i64>
    return %2, %3, %4, %5, %9 : tensor<16xi64>, tensor<16xi64>, tensor<16xi64>, tensor<16xi32>, tensor<i64>
  }
  func.func private @floor_divide(%arg0: tensor<16xi64>, %arg1: tensor<i64>) -> tensor<16xi64> {
    %0 = stablehlo.convert %arg1 : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i64>) -> tensor<16xi64>
    %2 = stablehlo.divide %arg0, %1 : tensor<16xi64>
    %3 = stablehlo.sign %arg0 : tensor<16xi64>
    %4 = stablehlo.sign %0 : tensor<i64>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<i64>) -> tensor<16xi64>
    %6 = stablehlo.compare NE, %3, %5, SIGNED : (tensor<16xi64>, tensor<16xi64>) -> tensor<16xi1>
    %7 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i64>) -> tensor<16xi64>
    %8 = stablehlo.remainder %arg0, %7 : tensor<16xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %9 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<16xi64>
    %10 = stablehlo.compare NE, %8, %9, SIGNED : (tensor<16xi64>, tensor<16xi64>) -> tensor<16xi1>
    %11 = stablehlo.and %6, %10 : tensor<16xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i64>
    %12 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<16xi64>
    %13 = stablehlo.subtract %2, %12 : tensor<16xi64>
    %14 = call @_where(%11, %13, %2) : (tensor<16xi1>, tensor<16xi64>, tensor<16xi64>) -> tensor<16xi64>
    return %14 : tensor<16xi64>
  }
  func.func private @_where(%arg0: tensor<16xi1>, %arg1: tensor<16xi64>, %arg2: tensor<16xi64>) -> tensor<16xi64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<16xi1>, tensor<16xi64>
    return %0 : tensor<16xi64>
  }
  func.func private @cumsum(%arg0: tensor<16xi64>) -> tensor<16xi64> {
    %0 = call @cumsum_0(%arg0) : (tensor<16xi64>) -> tensor<16xi64>
    return %0 : tensor<16xi64>
  }
  func.func private @cumsum_0(%arg0: tensor<16xi64>) -> tensor<16xi64> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<i64>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1>, padding = dense<[[15, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 16>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i64>, %arg2: tensor<i64>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i64>
      stablehlo.return %2 : tensor<i64>
    }) : (tensor<16xi64>, tensor<i64>) -> tensor<16xi64>
    return %1 : tensor<16xi64>
  }
}
