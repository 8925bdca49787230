// Sliding windows over a split time axis, as JAX prints them: a moving
// sum of 5 ("SAME": padded by 2 on each side), then a max pooling of 3
// with stride 2 ("SAME": padded by 1 at the end), each a reduce_window;
// time (64 steps) split over 4 devices. Each device receives the 2 steps
// on each side of its block for the sum and 1 step for the pooling
// (halo exchange by ppermute) instead of gathering the series.
//
//   mesh = jax.make_mesh((4,), ('x',))
//   def f(x):                                     # [8, 64]
//     s = jax.lax.reduce_window(x, 0., jax.lax.add, (1, 5), (1, 1), 'SAME')
//     m = jax.lax.reduce_window(s, -jnp.inf, jax.lax.max, (1, 3), (1, 2),
//                               'SAME')
//     return m / 5
//   jax.jit(f, in_shardings=P(None, 'x'), out_shardings=P(None, 'x'))
//
//   trellis-run examples/jax/moving_window.mlir --random 1 --reference
module @jit_f attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<8x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x32xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{padding = dense<[[0, 0], [2, 2]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 5>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %4 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %4 : tensor<f32>
    }) : (tensor<8x64xf32>, tensor<f32>) -> tensor<8x64xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = "stablehlo.reduce_window"(%0, %cst_0) <{padding = dense<[[0, 0], [0, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %4 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %4 : tensor<f32>
    }) : (tensor<8x64xf32>, tensor<f32>) -> tensor<8x32xf32>
    %cst_1 = stablehlo.constant dense<5.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %3 = stablehlo.divide %1, %2 : tensor<8x32xf32>
    return %3 : tensor<8x32xf32>
  }
}
