// Attention with 30 heads on 4 devices, as JAX prints it: the heads do
// not divide by the mesh (JAX pads them under jit; Trellis too). Each
// device takes 8 heads (the last one 6 and 2 of padding): scores,
// softmax and values are computed per head without communication; the
// output projection sums over the heads, with the padded heads masked
// out of the contraction, and one psum adds the devices' partial sums.
//
//   mesh = jax.make_mesh((4,), ('x',))
//   def f(q, k, v, wo):     # q, k, v: [30, 16, 8]; wo: [30, 8, 32]
//     s = jnp.einsum('hsd,htd->hst', q, k) / jnp.sqrt(8.)
//     p = jax.nn.softmax(s, axis=-1)
//     a = jnp.einsum('hst,htd->hsd', p, v)
//     return jnp.einsum('hsd,hde->se', a, wo)
//   jax.jit(f, in_shardings=(P('x'),) * 4, out_shardings=P())
//
//   trellis-run examples/jax/attention_30_heads.mlir --random 1 --reference
module @jit_f attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<30x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}, %arg1: tensor<30x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}, %arg2: tensor<30x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}, %arg3: tensor<30x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) -> (tensor<16x32xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<30x16x8xf32>, tensor<30x16x8xf32>) -> tensor<30x16x16xf32>
    %cst = stablehlo.constant dense<2.82842708> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<30x16x16xf32>
    %2 = stablehlo.divide %0, %1 : tensor<30x16x16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst_0) applies stablehlo.maximum across dimensions = [2] : (tensor<30x16x16xf32>, tensor<f32>) -> tensor<30x16xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<30x16xf32>) -> tensor<30x16x16xf32>
    %5 = stablehlo.subtract %2, %4 : tensor<30x16x16xf32>
    %6 = stablehlo.exponential %5 : tensor<30x16x16xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<30x16x16xf32>, tensor<f32>) -> tensor<30x16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<30x16xf32>) -> tensor<30x16x16xf32>
    %9 = stablehlo.divide %6, %8 : tensor<30x16x16xf32>
    %10 = stablehlo.dot_general %9, %arg2, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<30x16x16xf32>, tensor<30x16x8xf32>) -> tensor<30x16x8xf32>
    %11 = stablehlo.dot_general %10, %arg3, contracting_dims = [0, 2] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<30x16x8xf32>, tensor<30x8x32xf32>) -> tensor<16x32xf32>
    return %11 : tensor<16x32xf32>
  }
}
