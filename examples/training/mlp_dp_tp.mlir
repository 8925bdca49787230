// Training a 2-layer MLP, data parallel over "data" and tensor parallel over
// "model" on a 2x4 mesh, in the global view (as jax.jit sees it): the
// shardings sit on the arguments, trellis-grad builds the backward pass,
// whose gradients carry the parameters' shardings, and the partitioner
// splits forward and backward alike.
//
//   mesh = jax.make_mesh((2, 4), ('data', 'model'))
//   def loss(w1, b1, w2, x, y):
//     return jnp.mean((jax.nn.relu(x @ w1 + b1) @ w2 - y) ** 2)
//   w1: P(None, 'model'), b1: P('model'), w2: P('model', None),
//   x, y: P('data', None)
//   def train(w1, b1, w2, x, y):             # 200 steps of SGD, lr 0.05
//     for i in range(200):
//       l, g = jax.value_and_grad(loss, argnums=(0, 1, 2))(w1, b1, w2, x, y)
//       w1, b1, w2 = w1 - 0.05 * g[0], b1 - 0.05 * g[1], w2 - 0.05 * g[2]
//       losses[i] = l
//     return losses, w1, b1, w2
//
// Run (the first output is the loss per step; --reference runs the same
// steps unpartitioned on one device and compares every output):
//   trellis-opt examples/training/mlp_dp_tp.mlir --trellis-grad -o /tmp/mlp.mlir
//   trellis-run /tmp/mlp.mlir --entry train --random 1 --reference
//   trellis-run /tmp/mlp.mlir --entry train_adam --random 1 --reference

trellis.mesh @mesh = <["data"=2, "model"=4]>

func.func @loss(%w1: tensor<16x64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"model"}]>},
                %b1: tensor<64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"model"}]>},
                %w2: tensor<64x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"model"}, {}]>},
                %x: tensor<32x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"data"}, {}]>},
                %y: tensor<32x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"data"}, {}]>})
    -> tensor<f32> attributes {trellis.grad = [0, 1, 2]} {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<32x64xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<32x16xf32>, tensor<16x64xf32>) outs(%z1 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %eb = tensor.empty() : tensor<32x64xf32>
  %bias = linalg.broadcast ins(%b1 : tensor<64xf32>) outs(%eb : tensor<32x64xf32>) dimensions = [0]
  %hb = arith.addf %h, %bias : tensor<32x64xf32>
  %zeros = arith.constant dense<0.0> : tensor<32x64xf32>
  %a = arith.maximumf %hb, %zeros : tensor<32x64xf32>
  %e2 = tensor.empty() : tensor<32x8xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<32x8xf32>) -> tensor<32x8xf32>
  %p = linalg.matmul ins(%a, %w2 : tensor<32x64xf32>, tensor<64x8xf32>) outs(%z2 : tensor<32x8xf32>) -> tensor<32x8xf32>
  %d = arith.subf %p, %y : tensor<32x8xf32>
  %sq = arith.mulf %d, %d : tensor<32x8xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce ins(%sq : tensor<32x8xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1]
    (%u: f32, %acc: f32) {
      %s = arith.addf %u, %acc : f32
      linalg.yield %s : f32
    }
  %n = arith.constant dense<256.0> : tensor<f32>
  %mean = arith.divf %sum, %n : tensor<f32>
  return %mean : tensor<f32>
}

// Filled in by trellis-grad: the loss and the gradients of w1, b1 and w2.
func.func private @loss_grad(tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>,
                             tensor<32x16xf32>, tensor<32x8xf32>)
    -> (tensor<f32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>)

func.func @train(%w1: tensor<16x64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"model"}]>},
                 %b1: tensor<64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"model"}]>},
                 %w2: tensor<64x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"model"}, {}]>},
                 %x: tensor<32x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"data"}, {}]>},
                 %y: tensor<32x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"data"}, {}]>})
    -> (tensor<200xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %steps = arith.constant 200 : index
  %lr = arith.constant 0.05 : f32
  %empty = tensor.empty() : tensor<200xf32>
  %r:4 = scf.for %i = %c0 to %steps step %c1
      iter_args(%losses = %empty, %p1 = %w1, %q1 = %b1, %p2 = %w2)
      -> (tensor<200xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>) {
    %l, %g1, %gb, %g2 = func.call @loss_grad(%p1, %q1, %p2, %x, %y)
        : (tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>, tensor<32x16xf32>, tensor<32x8xf32>)
        -> (tensor<f32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>)
    %n1 = func.call @sgd_16x64(%p1, %g1, %lr) : (tensor<16x64xf32>, tensor<16x64xf32>, f32) -> tensor<16x64xf32>
    %nb = func.call @sgd_64(%q1, %gb, %lr) : (tensor<64xf32>, tensor<64xf32>, f32) -> tensor<64xf32>
    %n2 = func.call @sgd_64x8(%p2, %g2, %lr) : (tensor<64x8xf32>, tensor<64x8xf32>, f32) -> tensor<64x8xf32>
    %lv = tensor.extract %l[] : tensor<f32>
    %next = tensor.insert %lv into %losses[%i] : tensor<200xf32>
    scf.yield %next, %n1, %nb, %n2 : tensor<200xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>
  }
  return %r#0, %r#1, %r#2, %r#3 : tensor<200xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>
}

// SGD: p - lr * g, as plain IR.
func.func private @sgd_16x64(%p: tensor<16x64xf32>, %g: tensor<16x64xf32>, %lr: f32) -> tensor<16x64xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%p, %g : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.mulf %lr, %b : f32
    %d = arith.subf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
func.func private @sgd_64(%p: tensor<64xf32>, %g: tensor<64xf32>, %lr: f32) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%p, %g : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.mulf %lr, %b : f32
    %d = arith.subf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
func.func private @sgd_64x8(%p: tensor<64x8xf32>, %g: tensor<64x8xf32>, %lr: f32) -> tensor<64x8xf32> {
  %e = tensor.empty() : tensor<64x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%p, %g : tensor<64x8xf32>, tensor<64x8xf32>) outs(%e : tensor<64x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.mulf %lr, %b : f32
    %d = arith.subf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<64x8xf32>
  return %r : tensor<64x8xf32>
}

// The same training with Adam (b1 0.9, b2 0.999, eps 1e-8, lr 0.01), its
// moments carried beside the parameters and sharded like them.
func.func @train_adam(%w1: tensor<16x64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"model"}]>},
                      %b1: tensor<64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"model"}]>},
                      %w2: tensor<64x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"model"}, {}]>},
                      %x: tensor<32x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"data"}, {}]>},
                      %y: tensor<32x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"data"}, {}]>})
    -> (tensor<200xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %steps = arith.constant 200 : index
  %one = arith.constant 1.0 : f32
  %beta1 = arith.constant 0.9 : f32
  %beta2 = arith.constant 0.999 : f32
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<200xf32>
  %e_w1 = tensor.empty() : tensor<16x64xf32>
  %z_w1 = linalg.fill ins(%zero : f32) outs(%e_w1 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %e_b1 = tensor.empty() : tensor<64xf32>
  %z_b1 = linalg.fill ins(%zero : f32) outs(%e_b1 : tensor<64xf32>) -> tensor<64xf32>
  %e_w2 = tensor.empty() : tensor<64x8xf32>
  %z_w2 = linalg.fill ins(%zero : f32) outs(%e_w2 : tensor<64x8xf32>) -> tensor<64x8xf32>
  %r:12 = scf.for %i = %c0 to %steps step %c1 iter_args(%losses = %empty, %p1 = %w1, %q1 = %b1, %p2 = %w2, %m1 = %z_w1, %mb = %z_b1, %m2 = %z_w2, %v1 = %z_w1, %vb = %z_b1, %v2 = %z_w2, %t1 = %one, %t2 = %one)
      -> (tensor<200xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>, f32, f32) {
    %l, %g1, %gb, %g2 = func.call @loss_grad(%p1, %q1, %p2, %x, %y)
        : (tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>, tensor<32x16xf32>, tensor<32x8xf32>) -> (tensor<f32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>)
    // beta^t, for the bias corrections 1 / (1 - beta^t).
    %s1 = arith.mulf %t1, %beta1 : f32
    %s2 = arith.mulf %t2, %beta2 : f32
    %d1 = arith.subf %one, %s1 : f32
    %d2 = arith.subf %one, %s2 : f32
    %n_w1:3 = func.call @adam_16x64(%p1, %g1, %m1, %v1, %d1, %d2)
        : (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, f32, f32) -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>)
    %n_b1:3 = func.call @adam_64(%q1, %gb, %mb, %vb, %d1, %d2)
        : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, f32, f32) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
    %n_w2:3 = func.call @adam_64x8(%p2, %g2, %m2, %v2, %d1, %d2)
        : (tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>, f32, f32) -> (tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>)
    %lv = tensor.extract %l[] : tensor<f32>
    %next = tensor.insert %lv into %losses[%i] : tensor<200xf32>
    scf.yield %next, %n_w1#0, %n_b1#0, %n_w2#0, %n_w1#1, %n_b1#1, %n_w2#1, %n_w1#2, %n_b1#2, %n_w2#2, %s1, %s2 : tensor<200xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>, f32, f32
  }
  return %r#0, %r#1, %r#2, %r#3 : tensor<200xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x8xf32>
}

// Adam on one parameter, as plain IR: m = b1 m + (1 - b1) g,
// v = b2 v + (1 - b2) g^2, p = p - lr (m / d1) / (sqrt(v / d2) + eps),
// with d1 = 1 - b1^t and d2 = 1 - b2^t.
func.func private @adam_16x64(%p: tensor<16x64xf32>, %g: tensor<16x64xf32>, %m: tensor<16x64xf32>, %v: tensor<16x64xf32>, %d1: f32, %d2: f32)
    -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>) {
  %e = tensor.empty() : tensor<16x64xf32>
  %b1 = arith.constant dense<0.9> : tensor<16x64xf32>
  %nb1 = arith.constant dense<0.1> : tensor<16x64xf32>
  %b2 = arith.constant dense<0.999> : tensor<16x64xf32>
  %nb2 = arith.constant dense<0.001> : tensor<16x64xf32>
  %lr = arith.constant dense<0.01> : tensor<16x64xf32>
  %eps = arith.constant dense<1.0e-8> : tensor<16x64xf32>
  %cd1 = linalg.fill ins(%d1 : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %cd2 = linalg.fill ins(%d2 : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m0 = arith.mulf %b1, %m : tensor<16x64xf32>
  %m1 = arith.mulf %nb1, %g : tensor<16x64xf32>
  %mn = arith.addf %m0, %m1 : tensor<16x64xf32>
  %gg = arith.mulf %g, %g : tensor<16x64xf32>
  %v0 = arith.mulf %b2, %v : tensor<16x64xf32>
  %v1 = arith.mulf %nb2, %gg : tensor<16x64xf32>
  %vn = arith.addf %v0, %v1 : tensor<16x64xf32>
  %mh = arith.divf %mn, %cd1 : tensor<16x64xf32>
  %vh = arith.divf %vn, %cd2 : tensor<16x64xf32>
  %sq = math.sqrt %vh : tensor<16x64xf32>
  %den = arith.addf %sq, %eps : tensor<16x64xf32>
  %step = arith.divf %mh, %den : tensor<16x64xf32>
  %upd = arith.mulf %lr, %step : tensor<16x64xf32>
  %pn = arith.subf %p, %upd : tensor<16x64xf32>
  return %pn, %mn, %vn : tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>
}

func.func private @adam_64(%p: tensor<64xf32>, %g: tensor<64xf32>, %m: tensor<64xf32>, %v: tensor<64xf32>, %d1: f32, %d2: f32)
    -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %e = tensor.empty() : tensor<64xf32>
  %b1 = arith.constant dense<0.9> : tensor<64xf32>
  %nb1 = arith.constant dense<0.1> : tensor<64xf32>
  %b2 = arith.constant dense<0.999> : tensor<64xf32>
  %nb2 = arith.constant dense<0.001> : tensor<64xf32>
  %lr = arith.constant dense<0.01> : tensor<64xf32>
  %eps = arith.constant dense<1.0e-8> : tensor<64xf32>
  %cd1 = linalg.fill ins(%d1 : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %cd2 = linalg.fill ins(%d2 : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %m0 = arith.mulf %b1, %m : tensor<64xf32>
  %m1 = arith.mulf %nb1, %g : tensor<64xf32>
  %mn = arith.addf %m0, %m1 : tensor<64xf32>
  %gg = arith.mulf %g, %g : tensor<64xf32>
  %v0 = arith.mulf %b2, %v : tensor<64xf32>
  %v1 = arith.mulf %nb2, %gg : tensor<64xf32>
  %vn = arith.addf %v0, %v1 : tensor<64xf32>
  %mh = arith.divf %mn, %cd1 : tensor<64xf32>
  %vh = arith.divf %vn, %cd2 : tensor<64xf32>
  %sq = math.sqrt %vh : tensor<64xf32>
  %den = arith.addf %sq, %eps : tensor<64xf32>
  %step = arith.divf %mh, %den : tensor<64xf32>
  %upd = arith.mulf %lr, %step : tensor<64xf32>
  %pn = arith.subf %p, %upd : tensor<64xf32>
  return %pn, %mn, %vn : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

func.func private @adam_64x8(%p: tensor<64x8xf32>, %g: tensor<64x8xf32>, %m: tensor<64x8xf32>, %v: tensor<64x8xf32>, %d1: f32, %d2: f32)
    -> (tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>) {
  %e = tensor.empty() : tensor<64x8xf32>
  %b1 = arith.constant dense<0.9> : tensor<64x8xf32>
  %nb1 = arith.constant dense<0.1> : tensor<64x8xf32>
  %b2 = arith.constant dense<0.999> : tensor<64x8xf32>
  %nb2 = arith.constant dense<0.001> : tensor<64x8xf32>
  %lr = arith.constant dense<0.01> : tensor<64x8xf32>
  %eps = arith.constant dense<1.0e-8> : tensor<64x8xf32>
  %cd1 = linalg.fill ins(%d1 : f32) outs(%e : tensor<64x8xf32>) -> tensor<64x8xf32>
  %cd2 = linalg.fill ins(%d2 : f32) outs(%e : tensor<64x8xf32>) -> tensor<64x8xf32>
  %m0 = arith.mulf %b1, %m : tensor<64x8xf32>
  %m1 = arith.mulf %nb1, %g : tensor<64x8xf32>
  %mn = arith.addf %m0, %m1 : tensor<64x8xf32>
  %gg = arith.mulf %g, %g : tensor<64x8xf32>
  %v0 = arith.mulf %b2, %v : tensor<64x8xf32>
  %v1 = arith.mulf %nb2, %gg : tensor<64x8xf32>
  %vn = arith.addf %v0, %v1 : tensor<64x8xf32>
  %mh = arith.divf %mn, %cd1 : tensor<64x8xf32>
  %vh = arith.divf %vn, %cd2 : tensor<64x8xf32>
  %sq = math.sqrt %vh : tensor<64x8xf32>
  %den = arith.addf %sq, %eps : tensor<64x8xf32>
  %step = arith.divf %mh, %den : tensor<64x8xf32>
  %upd = arith.mulf %lr, %step : tensor<64x8xf32>
  %pn = arith.subf %p, %upd : tensor<64x8xf32>
  return %pn, %mn, %vn : tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>
}
