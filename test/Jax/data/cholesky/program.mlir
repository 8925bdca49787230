module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x6xf32>) -> (tensor<6x6xf32> {jax.result_info = "result"}) {
    %0 = call @cholesky(%arg0) : (tensor<6x6xf32>) -> tensor<6x6xf32>
    return %0 : tensor<6x6xf32>
  }
  func.func private @cholesky(%arg0: tensor<6x6xf32>) -> tensor<6x6xf32> {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<6x6xf32>) -> tensor<6x6xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<6x6xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x6xf32>
    %3 = stablehlo.divide %1, %2 : tensor<6x6xf32>
    %4:2 = stablehlo.custom_call @lapack_spotrf_ffi(%3) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], []) {i=6, j=6, k=6, l=6}, custom>} : (tensor<6x6xf32>) -> (tensor<6x6xf32>, tensor<i32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %6 = stablehlo.compare EQ, %4#1, %5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x6xf32>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<6x6xi1>
    %10 = stablehlo.select %9, %4#0, %8 : tensor<6x6xi1>, tensor<6x6xf32>
    %11 = stablehlo.iota dim = 0 : tensor<6x6xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %12 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<6x6xi32>
    %13 = stablehlo.add %11, %12 : tensor<6x6xi32>
    %14 = stablehlo.iota dim = 1 : tensor<6x6xi32>
    %15 = stablehlo.compare GE, %13, %14, SIGNED : (tensor<6x6xi32>, tensor<6x6xi32>) -> tensor<6x6xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<6x6xf32>
    %17 = stablehlo.select %15, %10, %16 : tensor<6x6xi1>, tensor<6x6xf32>
    return %17 : tensor<6x6xf32>
  }
}
