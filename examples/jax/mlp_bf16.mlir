// The MLP in bf16 as JAX prints it with f32 accumulation
// (preferred_element_type=jnp.float32): each dot_general takes bf16 and
// gives f32, the hidden layer is rounded back to bf16. The partial sums
// of the second matmul are psum'd over "model" in f32.
//
//   mesh = jax.make_mesh((2, 4), ('data', 'model'))
//   def mlp(x, w1, w2):                   # bf16 [8,64], [64,128], [128,64]
//     h = jnp.dot(x, w1, preferred_element_type=jnp.float32)
//     h = jax.nn.relu(h.astype(jnp.bfloat16))
//     return jnp.dot(h, w2, preferred_element_type=jnp.float32)
//   x: P('data', None), w1: P(None, 'model'), w2: P('model', None)
//
//   trellis-run examples/jax/mlp_bf16.mlir --random 1 --reference
module @jit_mlp attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]>
  func.func public @main(%arg0: tensor<8x64xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<64x128xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<128x64xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) -> (tensor<8x64xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xbf16>, tensor<64x128xbf16>) -> tensor<8x128xf32>
    %1 = stablehlo.convert %0 : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<8x128xbf16>
    %3 = stablehlo.maximum %1, %2 : tensor<8x128xbf16>
    %4 = stablehlo.dot_general %3, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xbf16>, tensor<128x64xbf16>) -> tensor<8x64xf32>
    return %4 : tensor<8x64xf32>
  }
}
