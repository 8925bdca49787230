// One SGD step of a 2-layer MLP as JAX prints it: the forward pass, the
// mean squared error, its gradients through dot_general and reduce (the
// transposes of the forward dot_generals, contracting the batch), and the
// update. Data parallel over "data", the hidden dimension split over
// "model" (a 2x4 mesh).
//
//   mesh = jax.make_mesh((2, 4), ('data', 'model'))
//   def loss(w1, w2, x, y):
//     return jnp.mean((jax.nn.relu(x @ w1) @ w2 - y) ** 2)
//   @jax.jit
//   def train_step(w1, w2, x, y):         # [16,32] [32,4] [8,16] [8,4]
//     l, (g1, g2) = jax.value_and_grad(loss, argnums=(0, 1))(w1, w2, x, y)
//     return w1 - 0.1 * g1, w2 - 0.1 * g2, l
//   w1: P(None, 'model'), w2: P('model', None), x and y: P('data', None)
//
//   trellis-run examples/jax/mlp_train_step.mlir --random 3 --reference
module @jit_train_step attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]>
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg1: tensor<32x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg3: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<16x32xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<32x4xf32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<f32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %2 = stablehlo.maximum %0, %1 : tensor<8x32xf32>
    %3 = stablehlo.dot_general %2, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
    %4 = stablehlo.subtract %3, %arg3 : tensor<8x4xf32>
    %5 = stablehlo.multiply %4, %4 : tensor<8x4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %7 = stablehlo.divide %6, %cst_1 : tensor<f32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %9 = stablehlo.multiply %8, %4 : tensor<8x4xf32>
    %cst_3 = stablehlo.constant dense<3.125000e-02> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %11 = stablehlo.multiply %10, %9 : tensor<8x4xf32>
    %12 = stablehlo.dot_general %11, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4xf32>, tensor<32x4xf32>) -> tensor<8x32xf32>
    %13 = stablehlo.dot_general %2, %11, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<8x4xf32>) -> tensor<32x4xf32>
    %14 = stablehlo.compare  GT, %0, %1,  FLOAT : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xi1>
    %15 = stablehlo.select %14, %12, %1 : tensor<8x32xi1>, tensor<8x32xf32>
    %16 = stablehlo.dot_general %arg2, %15, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
    %cst_4 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %18 = stablehlo.multiply %17, %16 : tensor<16x32xf32>
    %19 = stablehlo.subtract %arg0, %18 : tensor<16x32xf32>
    %20 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %21 = stablehlo.multiply %20, %13 : tensor<32x4xf32>
    %22 = stablehlo.subtract %arg1, %21 : tensor<32x4xf32>
    return %19, %22, %7 : tensor<16x32xf32>, tensor<32x4xf32>, tensor<f32>
  }
}
