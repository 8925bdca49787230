// A 2-layer MLP as JAX prints it (`jax.jit(mlp).lower(x, w1, b1, w2).as_text()`
// with Shardy, JAX's default partitioner), on a 2x4 mesh:
//
//   mesh = jax.make_mesh((2, 4), ('data', 'model'))
//   def mlp(x, w1, b1, w2):
//     return jax.nn.relu(x @ w1 + b1) @ w2
//   x  = jax.device_put(x,  NamedSharding(mesh, P('data', None)))   # [8, 16]
//   w1 = jax.device_put(w1, NamedSharding(mesh, P(None, 'model')))  # [16, 32]
//   b1 = jax.device_put(b1, NamedSharding(mesh, P('model')))        # [32]
//   w2 = jax.device_put(w2, NamedSharding(mesh, P('model', None)))  # [32, 16]
//
// Run it partitioned and against the unpartitioned program:
//   trellis-run examples/jax/mlp.mlir --random 1 --reference
module @jit_mlp attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, %arg3: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32>
    %2 = stablehlo.add %0, %1 : tensor<8x32xf32>
    %3 = call @relu(%2) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %4 = stablehlo.dot_general %3, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    return %4 : tensor<8x16xf32>
  }
  func.func private @relu(%arg0: tensor<8x32xf32>) -> tensor<8x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x32xf32>
    return %1 : tensor<8x32xf32>
  }
}
