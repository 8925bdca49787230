// The loss of examples/jax/fsdp_scan.mlir (the same scan, then the sum of
// squares of its output), for trellis-grad: fsdp_scan_grad.test
// differentiates it, partitions the gradient and runs it with --overlap.
module @jit_loss attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["d"=8]>
  func.func public @main(%arg0: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}, %arg1: tensor<4x64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"d"}, {}]>}) -> (tensor<f32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %arg1, %iterArg_0 = %c, %iterArg_1 = %arg0) : tensor<4x64x64xf32>, tensor<i32>, tensor<64x64xf32>
     cond {
      %c_2 = stablehlo.constant dense<4> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg_0, %c_2,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_2 = stablehlo.constant dense<0> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg_0, %c_2,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_3 = stablehlo.constant dense<4> : tensor<i32>
      %2 = stablehlo.add %iterArg_0, %c_3 : tensor<i32>
      %3 = stablehlo.select %1, %2, %iterArg_0 : tensor<i1>, tensor<i32>
      %c_4 = stablehlo.constant dense<0> : tensor<i32>
      %4 = stablehlo.dynamic_slice %iterArg, %3, %c_4, %c_4, sizes = [1, 64, 64] : (tensor<4x64x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x64xf32>
      %5 = stablehlo.reshape %4 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
      %6 = stablehlo.dot_general %iterArg_1, %5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
      %8 = stablehlo.maximum %6, %7 : tensor<64x64xf32>
      %c_5 = stablehlo.constant dense<1> : tensor<i32>
      %9 = stablehlo.add %iterArg_0, %c_5 : tensor<i32>
      stablehlo.return %iterArg, %9, %8 : tensor<4x64x64xf32>, tensor<i32>, tensor<64x64xf32>
    }
    %sq = stablehlo.multiply %0#2, %0#2 : tensor<64x64xf32>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %loss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x64xf32>, tensor<f32>) -> tensor<f32>
    return %loss : tensor<f32>
  }
}
