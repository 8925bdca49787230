// Training the transformer block of examples/jax/transformer_block.mlir
// (pre-norm attention + gelu MLP, as JAX printed it: batch over "data",
// heads and the FFN hidden dimension over "model", Megatron style, on 2x4),
// under a mean squared error written here in the same StableHLO:
//
//   def loss(x, wq, wk, wv, wo, w1, w2, g1, g2, y):
//     return jnp.mean((block(x, wq, wk, wv, wo, w1, w2, g1, g2) - y) ** 2)
//
// trellis-grad differentiates it after import (gradients with respect to
// the eight weights of the block, each keeping its sharding), @train runs
// 30 SGD steps in Trellis IR, and the partitioner splits forward and
// backward over the 2x4 mesh:
//
//   trellis-opt examples/training/transformer_block.mlir --trellis-import-stablehlo \
//     --inline "--trellis-grad=funcs=main wrt=1,2,3,4,5,6,7,8" -o /tmp/tb.mlir
//   trellis-run /tmp/tb.mlir --entry main_grad --random 4 --reference
//   trellis-run /tmp/tb.mlir --entry train --random 4 --reference
module @jit_loss attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]>
  func.func public @main(%arg0: tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}, %arg1: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg2: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg3: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg4: tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, %arg5: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg6: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg7: tensor<32xf32>, %arg8: tensor<32xf32>, %arg9: tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}) -> (tensor<f32> {jax.result_info = "result"}) {
    %0 = call @block(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8) : (tensor<4x8x32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
    %1 = stablehlo.subtract %0, %arg9 : tensor<4x8x32xf32>
    %2 = stablehlo.multiply %1, %1 : tensor<4x8x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %4 = stablehlo.divide %3, %cst_0 : tensor<f32>
    return %4 : tensor<f32>
  }
  func.func private @block(%arg0: tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}, %arg1: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg2: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg3: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg4: tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, %arg5: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg6: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg7: tensor<32xf32>, %arg8: tensor<32xf32>) -> (tensor<4x8x32xf32> {jax.result_info = "result"}) {
    %0 = call @rmsnorm(%arg0, %arg7) : (tensor<4x8x32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
    %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x4x8xf32>) -> tensor<4x8x4x8xf32>
    %2 = stablehlo.dot_general %0, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x4x8xf32>) -> tensor<4x8x4x8xf32>
    %3 = stablehlo.dot_general %0, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x4x8xf32>) -> tensor<4x8x4x8xf32>
    %4 = stablehlo.dot_general %1, %2, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xf32>, tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %cst = stablehlo.constant dense<2.82842708> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4x8x8xf32>
    %6 = stablehlo.divide %4, %5 : tensor<4x4x8x8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_0) applies stablehlo.maximum across dimensions = [3] : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %10 = stablehlo.subtract %6, %9 : tensor<4x4x8x8xf32>
    %11 = stablehlo.exponential %10 : tensor<4x4x8x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.reduce(%11 init: %cst_1) applies stablehlo.add across dimensions = [3] : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %15 = stablehlo.divide %11, %14 : tensor<4x4x8x8xf32>
    %16 = stablehlo.dot_general %15, %3, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x8xf32>, tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %17 = stablehlo.transpose %16, dims = [0, 2, 1, 3] : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %18 = sdy.sharding_constraint %17 <@mesh, [{"data"}, {}, {"model"}, {}]> : tensor<4x8x4x8xf32>
    %19 = stablehlo.dot_general %18, %arg4, contracting_dims = [2, 3] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %20 = stablehlo.add %arg0, %19 : tensor<4x8x32xf32>
    %21 = call @rmsnorm(%20, %arg8) : (tensor<4x8x32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
    %22 = stablehlo.dot_general %21, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %cst_2 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %24 = stablehlo.multiply %22, %23 : tensor<4x8x64xf32>
    %25 = chlo.erf %24 : tensor<4x8x64xf32> -> tensor<4x8x64xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %27 = stablehlo.add %26, %25 : tensor<4x8x64xf32>
    %28 = stablehlo.multiply %22, %27 : tensor<4x8x64xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %30 = stablehlo.divide %28, %29 : tensor<4x8x64xf32>
    %31 = stablehlo.dot_general %30, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x64xf32>, tensor<64x32xf32>) -> tensor<4x8x32xf32>
    %32 = stablehlo.add %20, %31 : tensor<4x8x32xf32>
    return %32 : tensor<4x8x32xf32>
  }
  func.func private @rmsnorm(%arg0: tensor<4x8x32xf32>, %arg1: tensor<32xf32>) -> tensor<4x8x32xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4x8x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %4 = stablehlo.divide %2, %3 : tensor<4x8x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %6 = stablehlo.add %4, %5 : tensor<4x8x1xf32>
    %7 = stablehlo.rsqrt %6 : tensor<4x8x1xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %9 = stablehlo.multiply %arg0, %8 : tensor<4x8x32xf32>
    %10 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %11 = stablehlo.multiply %9, %10 : tensor<4x8x32xf32>
    return %11 : tensor<4x8x32xf32>
  }

  // Filled in by trellis-grad: the loss and the gradients of the weights.
  func.func private @main_grad(tensor<4x8x32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<4x8x32xf32>) -> (tensor<f32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>)

  // 30 steps of SGD (lr 0.01) in Trellis IR, beside the StableHLO the importer
  // converts: the loss per step, then the trained weights.
  func.func public @train(%arg0: tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}, %arg1: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg2: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg3: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg4: tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, %arg5: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg6: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg7: tensor<32xf32>, %arg8: tensor<32xf32>, %arg9: tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}) -> (tensor<30xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c30 = arith.constant 30 : index
    %lr = arith.constant 0.01 : f32
    %empty = tensor.empty() : tensor<30xf32>
    %r:9 = scf.for %i = %c0 to %c30 step %c1 iter_args(%losses = %empty, %p0 = %arg1, %p1 = %arg2, %p2 = %arg3, %p3 = %arg4, %p4 = %arg5, %p5 = %arg6, %p6 = %arg7, %p7 = %arg8) -> (tensor<30xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>) {
      %g:9 = func.call @main_grad(%arg0, %p0, %p1, %p2, %p3, %p4, %p5, %p6, %p7, %arg9) : (tensor<4x8x32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<4x8x32xf32>) -> (tensor<f32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>)
      %e0 = tensor.empty() : tensor<32x4x8xf32>
      %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p0, %g#1 : tensor<32x4x8xf32>, tensor<32x4x8xf32>) outs(%e0 : tensor<32x4x8xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %s = arith.mulf %lr, %b : f32
        %d = arith.subf %a, %s : f32
        linalg.yield %d : f32
      } -> tensor<32x4x8xf32>
      %e1 = tensor.empty() : tensor<32x4x8xf32>
      %n1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p1, %g#2 : tensor<32x4x8xf32>, tensor<32x4x8xf32>) outs(%e1 : tensor<32x4x8xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %s = arith.mulf %lr, %b : f32
        %d = arith.subf %a, %s : f32
        linalg.yield %d : f32
      } -> tensor<32x4x8xf32>
      %e2 = tensor.empty() : tensor<32x4x8xf32>
      %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p2, %g#3 : tensor<32x4x8xf32>, tensor<32x4x8xf32>) outs(%e2 : tensor<32x4x8xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %s = arith.mulf %lr, %b : f32
        %d = arith.subf %a, %s : f32
        linalg.yield %d : f32
      } -> tensor<32x4x8xf32>
      %e3 = tensor.empty() : tensor<4x8x32xf32>
      %n3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p3, %g#4 : tensor<4x8x32xf32>, tensor<4x8x32xf32>) outs(%e3 : tensor<4x8x32xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %s = arith.mulf %lr, %b : f32
        %d = arith.subf %a, %s : f32
        linalg.yield %d : f32
      } -> tensor<4x8x32xf32>
      %e4 = tensor.empty() : tensor<32x64xf32>
      %n4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p4, %g#5 : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e4 : tensor<32x64xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %s = arith.mulf %lr, %b : f32
        %d = arith.subf %a, %s : f32
        linalg.yield %d : f32
      } -> tensor<32x64xf32>
      %e5 = tensor.empty() : tensor<64x32xf32>
      %n5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p5, %g#6 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e5 : tensor<64x32xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %s = arith.mulf %lr, %b : f32
        %d = arith.subf %a, %s : f32
        linalg.yield %d : f32
      } -> tensor<64x32xf32>
      %e6 = tensor.empty() : tensor<32xf32>
      %n6 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p6, %g#7 : tensor<32xf32>, tensor<32xf32>) outs(%e6 : tensor<32xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %s = arith.mulf %lr, %b : f32
        %d = arith.subf %a, %s : f32
        linalg.yield %d : f32
      } -> tensor<32xf32>
      %e7 = tensor.empty() : tensor<32xf32>
      %n7 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p7, %g#8 : tensor<32xf32>, tensor<32xf32>) outs(%e7 : tensor<32xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %s = arith.mulf %lr, %b : f32
        %d = arith.subf %a, %s : f32
        linalg.yield %d : f32
      } -> tensor<32xf32>
      %lv = tensor.extract %g#0[] : tensor<f32>
      %next = tensor.insert %lv into %losses[%i] : tensor<30xf32>
      scf.yield %next, %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7 : tensor<30xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>
    }
    return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8 : tensor<30xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>
  }
}
