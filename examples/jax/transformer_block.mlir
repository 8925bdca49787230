// A pre-norm transformer block as JAX prints it, on a 2x4 mesh: batch over
// "data", attention heads and the FFN hidden dimension over "model"
// (Megatron style). RMSNorm, multi-head attention with softmax, exact
// (erf) gelu, residuals; einsums print as dot_general with batching
// dimensions and a transpose.
//
//   mesh = jax.make_mesh((2, 4), ('data', 'model'))
//   def rmsnorm(x, g):
//     return x * jax.lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-6) * g
//   @jax.jit
//   def block(x, wq, wk, wv, wo, w1, w2, g1, g2):
//     h = rmsnorm(x, g1)                                 # x: [4, 8, 32]
//     q = jnp.einsum('bsd,dhk->bshk', h, wq)             # wq/wk/wv: [32, 4, 8]
//     k = jnp.einsum('bsd,dhk->bshk', h, wk)
//     v = jnp.einsum('bsd,dhk->bshk', h, wv)
//     s = jnp.einsum('bshk,bthk->bhst', q, k) / jnp.sqrt(8.0)
//     a = jnp.einsum('bhst,bthk->bshk', jax.nn.softmax(s, axis=-1), v)
//     a = jax.lax.with_sharding_constraint(a, P('data', None, 'model', None))
//     x = x + jnp.einsum('bshk,hkd->bsd', a, wo)         # wo: [4, 8, 32]
//     f = jax.nn.gelu(rmsnorm(x, g2) @ w1, approximate=False) @ w2
//     return x + f                                       # w1: [32, 64]
//   x: P('data'), wq/wk/wv: P(None, 'model'), wo: P('model'),
//   w1: P(None, 'model'), w2: P('model', None), g1/g2: replicated
//
//   trellis-run examples/jax/transformer_block.mlir --random 4 --reference
module @jit_block attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]>
  func.func public @main(%arg0: tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}, %arg1: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg2: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg3: tensor<32x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg4: tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, %arg5: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg6: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg7: tensor<32xf32>, %arg8: tensor<32xf32>) -> (tensor<4x8x32xf32> {jax.result_info = "result"}) {
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
}
