// A mixture-of-experts layer with a top-2 router, as JAX prints it with
// Shardy: tokens split over "data", the 4 experts' weights over "model".
// The router's jax.lax.top_k prints as chlo.top_k; the gates are a
// softmax over the two picked logits, the one-hot of the picked experts
// an iota compare; every expert runs on every token (dense dispatch) and
// the combine weights pick two of them.
//
//   mesh = jax.make_mesh((2, 4), ('data', 'model'))
//   def moe(x, w_gate, w1, w2):        # [16,32] [32,4] [4,32,64] [4,64,32]
//     vals, idx = jax.lax.top_k(x @ w_gate, 2)
//     gates = jax.nn.softmax(vals, axis=-1)
//     combine = jnp.einsum('tk,tke->te', gates,
//                          jax.nn.one_hot(idx, 4, dtype=x.dtype))
//     h = jax.nn.relu(jnp.einsum('td,edf->tef', x, w1))
//     y = jnp.einsum('tef,efd->ted', h, w2)
//     return jnp.einsum('ted,te->td', y, combine)
//   jax.jit(moe, in_shardings=(P('data'), P(), P('model'), P('model')),
//           out_shardings=P('data'))
//
//   trellis-run examples/jax/moe_top_k.mlir --random 3 --reference
module @jit_moe attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]>
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<32x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg2: tensor<4x32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, %arg3: tensor<4x64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}) -> (tensor<16x32xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x4xf32>) -> tensor<16x4xf32>
    %values, %indices = chlo.top_k(%0, k = 2) : tensor<16x4xf32> -> (tensor<16x2xf32>, tensor<16x2xi32>)
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%values init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<16x2xf32>, tensor<f32>) -> tensor<16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %3 = stablehlo.maximum %2, %1 : tensor<16xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %6 = stablehlo.subtract %values, %5 : tensor<16x2xf32>
    %7 = stablehlo.exponential %6 : tensor<16x2xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<16x2xf32>, tensor<f32>) -> tensor<16xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %11 = stablehlo.divide %7, %10 : tensor<16x2xf32>
    %12 = stablehlo.broadcast_in_dim %indices, dims = [0, 1] : (tensor<16x2xi32>) -> tensor<16x2x1xi32>
    %13 = stablehlo.iota dim = 2 : tensor<1x1x4xi32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] : (tensor<16x2x1xi32>) -> tensor<16x2x4xi32>
    %15 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2] : (tensor<1x1x4xi32>) -> tensor<16x2x4xi32>
    %16 = stablehlo.compare  EQ, %14, %15,  SIGNED : (tensor<16x2x4xi32>, tensor<16x2x4xi32>) -> tensor<16x2x4xi1>
    %17 = stablehlo.convert %16 : (tensor<16x2x4xi1>) -> tensor<16x2x4xf32>
    %18 = stablehlo.dot_general %11, %17, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x2xf32>, tensor<16x2x4xf32>) -> tensor<16x4xf32>
    %19 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<4x32x64xf32>) -> tensor<16x4x64xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x4x64xf32>
    %21 = stablehlo.maximum %19, %20 : tensor<16x4x64xf32>
    %22 = stablehlo.dot_general %21, %arg3, batching_dims = [1] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x4x64xf32>, tensor<4x64x32xf32>) -> tensor<4x16x32xf32>
    %23 = stablehlo.transpose %22, dims = [1, 0, 2] : (tensor<4x16x32xf32>) -> tensor<16x4x32xf32>
    %24 = stablehlo.dot_general %23, %18, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x4x32xf32>, tensor<16x4xf32>) -> tensor<16x32xf32>
    return %24 : tensor<16x32xf32>
  }
}
