// Seed 001, "Efficient transposition of replication-inducing collectives":
// its Examples 1-5 and the cursed identity as linear Trellis functions, plus
// programs that exercise every transposition rule, on 8 devices as meshes
// (8,) and (4, 2).
//
// A function marked `spmd.transpose` is linear in every argument except
// those marked `spmd.nonlinear`; `trellis-opt --spmd-transpose` adds its
// transpose `@<name>_t` (`--spmd-transpose=naive=true` the transpose JAX
// built before device-variance types). With g(x) = x @ w:
//
//   f1 = shmap(lambda x: psum(g(x), 'i'), in_specs=P('i'), out_specs=P())
//     t(f1) = shmap(lambda ybar: t(g)(pvary(ybar, 'i')), P(), P('i'))
//   f2 = shmap(lambda x, y: psum(g(x), 'i') * y, (P('i'), P('i')), P('i'))
//     t(f2, 0) keeps its psum (of zbar * y)
//   cursed_identity = shmap(lambda x: x, P(), P())
//     t(cursed_identity) = t(t(cursed_identity)) = shmap(lambda x: x, P(), P())
//   f4 = shmap(lambda x: all_gather_invariant(x, 'i'), P('i'), P())
//     t(f4) = shmap(lambda ybar: pscatter(ybar, 'i'), P(), P('i'))
//   f5 = shmap(lambda x, y: all_gather(x, 'i') * y, (P('i'), P('i')), P('i'))
//     t(f5, 0) = shmap(lambda y, zbar: psum_scatter(zbar * y, 'i'), ...)
//
// Run: trellis-opt examples/seeds/transpose_examples.mlir --spmd-transpose -o t.mlir
//      trellis-run t.mlir --entry f1_t --random 1

trellis.mesh @m8 = <["i"=8]>
trellis.mesh @m42 = <["i"=4, "j"=2]>

//===----------------------------------------------------------------------===//
// Seed 001's examples on 8 devices
//===----------------------------------------------------------------------===//

// Example 1: psum to an unmapped output.
func.func @f1(%w: tensor<8x4xf32> {spmd.nonlinear}, %x: tensor<64x8xf32>) -> tensor<8x4xf32>
    attributes {spmd.transpose} {
  %y = spmd.shard_map @m8 in_specs = [[], [{"i"}]] out_specs = [[]]
      (%w, %x) : (tensor<8x4xf32>, tensor<64x8xf32>) -> tensor<8x4xf32> {
  ^bb0(%wb: tensor<8x4xf32>, %xb: tensor<8x8xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x4xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
    %g = linalg.matmul ins(%xb, %wb : tensor<8x8xf32>, tensor<8x4xf32>)
                       outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
    %s = spmd.psum %g over ["i"] : tensor<8x4xf32>
    spmd.yield %s : tensor<8x4xf32>
  }
  return %y : tensor<8x4xf32>
}

// Example 2: psum to a mapped output (transposed with respect to x).
func.func @f2(%w: tensor<8x4xf32> {spmd.nonlinear}, %y: tensor<64x4xf32> {spmd.nonlinear},
              %x: tensor<64x8xf32>) -> tensor<64x4xf32> attributes {spmd.transpose} {
  %z = spmd.shard_map @m8 in_specs = [[], [{"i"}], [{"i"}]] out_specs = [[{"i"}]]
      (%w, %y, %x) : (tensor<8x4xf32>, tensor<64x4xf32>, tensor<64x8xf32>) -> tensor<64x4xf32> {
  ^bb0(%wb: tensor<8x4xf32>, %yb: tensor<8x4xf32>, %xb: tensor<8x8xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x4xf32>
    %z0 = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
    %g = linalg.matmul ins(%xb, %wb : tensor<8x8xf32>, tensor<8x4xf32>)
                       outs(%z0 : tensor<8x4xf32>) -> tensor<8x4xf32>
    %s = spmd.psum %g over ["i"] : tensor<8x4xf32>
    %p = arith.mulf %s, %yb : tensor<8x4xf32>
    spmd.yield %p : tensor<8x4xf32>
  }
  return %z : tensor<64x4xf32>
}

// Example 3: the cursed identity.
func.func @cursed_identity(%x: tensor<8xf32>) -> tensor<8xf32> attributes {spmd.transpose} {
  %y = spmd.shard_map @m8 in_specs = [[]] out_specs = [[]]
      (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%xb: tensor<8xf32>):
    spmd.yield %xb : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}

// Example 4, rewritten with all_gather_invariant.
func.func @f4(%x: tensor<64xf32>) -> tensor<64xf32> attributes {spmd.transpose} {
  %y = spmd.shard_map @m8 in_specs = [[{"i"}]] out_specs = [[]]
      (%x) : (tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%xb: tensor<8xf32>):
    %g = spmd.all_gather_invariant %xb over ["i"] dim 0 tiled : tensor<8xf32> -> tensor<64xf32>
    spmd.yield %g : tensor<64xf32>
  }
  return %y : tensor<64xf32>
}

// Example 5: all_gather to a mapped output (transposed with respect to x).
func.func @f5(%y: tensor<512xf32> {spmd.nonlinear}, %x: tensor<64xf32>) -> tensor<512xf32>
    attributes {spmd.transpose} {
  %w = spmd.shard_map @m8 in_specs = [[{"i"}], [{"i"}]] out_specs = [[{"i"}]]
      (%y, %x) : (tensor<512xf32>, tensor<64xf32>) -> tensor<512xf32> {
  ^bb0(%yb: tensor<64xf32>, %xb: tensor<8xf32>):
    %z = spmd.all_gather %xb over ["i"] dim 0 tiled : tensor<8xf32> -> tensor<64xf32>
    %p = arith.mulf %z, %yb : tensor<64xf32>
    spmd.yield %p : tensor<64xf32>
  }
  return %w : tensor<512xf32>
}

// Seed 001's data-parallel loss, linearized in the parameters: the mean
// of a local loss, pmean over the batch axis, an unmapped output.
//   loss(params, batch) = pmean(mean(sum(inputs @ params - targets, -1)))
// is affine in params; its derivative (what the backward pass transposes)
// is dloss(dparams) = pmean(mean(sum(inputs @ dparams, -1))).
func.func @dp_loss(%inputs: tensor<64x16xf32> {spmd.nonlinear}, %dparams: tensor<16x4xf32>)
    -> tensor<1xf32> attributes {spmd.transpose} {
  %l = spmd.shard_map @m8 in_specs = [[{"i"}], []] out_specs = [[]]
      (%inputs, %dparams) : (tensor<64x16xf32>, tensor<16x4xf32>) -> tensor<1xf32> {
  ^bb0(%in: tensor<8x16xf32>, %p: tensor<16x4xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x4xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
    %pred = linalg.matmul ins(%in, %p : tensor<8x16xf32>, tensor<16x4xf32>)
                          outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
    %e1 = tensor.empty() : tensor<8xf32>
    %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
    %rows = linalg.reduce ins(%pred : tensor<8x4xf32>) outs(%z1 : tensor<8xf32>) dimensions = [1]
      (%a: f32, %acc: f32) {
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      }
    %row = tensor.expand_shape %rows [[0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
    %e2 = tensor.empty() : tensor<1xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1xf32>) -> tensor<1xf32>
    %total = linalg.reduce ins(%row : tensor<1x8xf32>) outs(%z2 : tensor<1xf32>) dimensions = [1]
      (%a: f32, %acc: f32) {
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      }
    %n = arith.constant dense<8.0> : tensor<1xf32>
    %local = arith.divf %total, %n : tensor<1xf32>
    %global = spmd.pmean %local over ["i"] : tensor<1xf32>
    spmd.yield %global : tensor<1xf32>
  }
  return %l : tensor<1xf32>
}

//===----------------------------------------------------------------------===//
// Every rule, on 8 devices
//===----------------------------------------------------------------------===//

// Elementwise, structured and tensor ops.
func.func @ops(%w: tensor<64x4xf32> {spmd.nonlinear}, %x: tensor<64x4xf32>) -> tensor<64x4xf32>
    attributes {spmd.transpose} {
  %r = spmd.shard_map @m8 in_specs = [[{"i"}], [{"i"}]] out_specs = [[{"i"}]]
      (%w, %x) : (tensor<64x4xf32>, tensor<64x4xf32>) -> tensor<64x4xf32> {
  ^bb0(%wb: tensor<8x4xf32>, %xb: tensor<8x4xf32>):
    %zero = arith.constant 0.0 : f32
    %two = arith.constant dense<2.0> : tensor<8x4xf32>
    %a = arith.mulf %xb, %wb : tensor<8x4xf32>
    %b = arith.divf %a, %two : tensor<8x4xf32>
    %c = arith.subf %b, %xb : tensor<8x4xf32>
    %d = arith.negf %c : tensor<8x4xf32>
    %et = tensor.empty() : tensor<4x8xf32>
    %t = linalg.transpose ins(%d : tensor<8x4xf32>) outs(%et : tensor<4x8xf32>) permutation = [1, 0]
    %flat = tensor.collapse_shape %t [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
    %g = tensor.expand_shape %flat [[0, 1]] output_shape [8, 4] : tensor<32xf32> into tensor<8x4xf32>
    %h = tensor.extract_slice %g[0, 0] [4, 4] [1, 1] : tensor<8x4xf32> to tensor<4x4xf32>
    %h2 = tensor.extract_slice %g[4, 0] [4, 4] [1, 1] : tensor<8x4xf32> to tensor<4x4xf32>
    %k = tensor.concat dim(0) %h2, %h : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
    %er = tensor.empty() : tensor<8xf32>
    %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
    %red = linalg.reduce ins(%k : tensor<8x4xf32>) outs(%zr : tensor<8xf32>) dimensions = [1]
      (%p: f32, %acc: f32) {
        %s = arith.addf %p, %acc : f32
        linalg.yield %s : f32
      }
    %eb = tensor.empty() : tensor<8x4xf32>
    %bc = linalg.broadcast ins(%red : tensor<8xf32>) outs(%eb : tensor<8x4xf32>) dimensions = [1]
    %sum = arith.addf %bc, %k : tensor<8x4xf32>
    %ez = tensor.empty() : tensor<8x4xf32>
    %zz = linalg.fill ins(%zero : f32) outs(%ez : tensor<8x4xf32>) -> tensor<8x4xf32>
    %ins = tensor.insert_slice %h into %zz[2, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x4xf32>
    %total = arith.addf %sum, %ins : tensor<8x4xf32>
    spmd.yield %total : tensor<8x4xf32>
  }
  return %r : tensor<64x4xf32>
}

// Every collective, and three outputs.
func.func @collectives(%x: tensor<64x8xf32>) -> (tensor<1x64xf32>, tensor<1x8xf32>, tensor<8x64xf32>)
    attributes {spmd.transpose} {
  %r:3 = spmd.shard_map @m8 in_specs = [[{"i"}]] out_specs = [[], [], [{"i"}]]
      (%x) : (tensor<64x8xf32>) -> (tensor<1x64xf32>, tensor<1x8xf32>, tensor<8x64xf32>) {
  ^bb0(%xb: tensor<8x8xf32>):
    %a = spmd.all_to_all %xb over ["i"] split 0 concat 1 : tensor<8x8xf32> -> tensor<1x64xf32>
    %p = spmd.ppermute %a over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]]
        : tensor<1x64xf32>
    %rs = spmd.psum_scatter %p over ["i"] dim 1 tiled : tensor<1x64xf32> -> tensor<1x8xf32>
    %ag = spmd.all_gather %rs over ["i"] dim 1 tiled : tensor<1x8xf32> -> tensor<1x64xf32>
    %m = spmd.pmean %ag over ["i"] : tensor<1x64xf32>
    %sc = spmd.pscatter %m over ["i"] dim 1 tiled : tensor<1x64xf32> -> tensor<1x8xf32>
    %agi = spmd.all_gather_invariant %sc over ["i"] dim 1 tiled : tensor<1x8xf32> -> tensor<1x64xf32>
    %s = spmd.psum %sc over ["i"] : tensor<1x8xf32>
    %v = spmd.pvary %s over ["i"] : tensor<1x8xf32>
    %agv = spmd.all_gather %v over ["i"] dim 1 tiled : tensor<1x8xf32> -> tensor<1x64xf32>
    %out = arith.addf %ag, %agv : tensor<1x64xf32>
    spmd.yield %agi, %s, %out : tensor<1x64xf32>, tensor<1x8xf32>, tensor<1x64xf32>
  }
  return %r#0, %r#1, %r#2 : tensor<1x64xf32>, tensor<1x8xf32>, tensor<8x64xf32>
}

// An scf.for with linear carried values, a closed-over linear value and a
// ppermute in the loop.
func.func @loop(%c: tensor<64x4xf32> {spmd.nonlinear}, %x: tensor<64x4xf32>) -> tensor<64x4xf32>
    attributes {spmd.transpose} {
  %r = spmd.shard_map @m8 in_specs = [[{"i"}], [{"i"}]] out_specs = [[{"i"}]]
      (%c, %x) : (tensor<64x4xf32>, tensor<64x4xf32>) -> tensor<64x4xf32> {
  ^bb0(%cb: tensor<8x4xf32>, %xb: tensor<8x4xf32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x4xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
    %out:2 = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %acc0, %t = %xb)
        -> (tensor<8x4xf32>, tensor<8x4xf32>) {
      %idx = spmd.axis_index over ["i"] : index
      %row = arith.addi %idx, %k : index
      %r8 = arith.remui %row, %c3 : index
      %cs = tensor.extract_slice %cb[%r8, 0] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<4xf32>
      %eb = tensor.empty() : tensor<8x4xf32>
      %cbc = linalg.broadcast ins(%cs : tensor<4xf32>) outs(%eb : tensor<8x4xf32>) dimensions = [0]
      %m = arith.mulf %t, %cb : tensor<8x4xf32>
      %m2 = arith.mulf %xb, %cbc : tensor<8x4xf32>
      %a1 = arith.addf %acc, %m : tensor<8x4xf32>
      %a2 = arith.addf %a1, %m2 : tensor<8x4xf32>
      %next = spmd.ppermute %t over ["i"] pairs [[0, 7], [1, 0], [2, 1], [3, 2], [4, 3], [5, 4], [6, 5], [7, 6]]
          : tensor<8x4xf32>
      scf.yield %a2, %next : tensor<8x4xf32>, tensor<8x4xf32>
    }
    %res = arith.addf %out#0, %out#1 : tensor<8x4xf32>
    spmd.yield %res : tensor<8x4xf32>
  }
  return %r : tensor<64x4xf32>
}

//===----------------------------------------------------------------------===//
// On a 4 x 2 mesh
//===----------------------------------------------------------------------===//

// Example 1 over two axes: psum over both, unmapped output.
func.func @f1_2d(%w: tensor<16x4xf32> {spmd.nonlinear}, %x: tensor<8x16xf32>) -> tensor<2x4xf32>
    attributes {spmd.transpose} {
  %y = spmd.shard_map @m42 in_specs = [[{"j"}, {}], [{"i"}, {"j"}]] out_specs = [[]]
      (%w, %x) : (tensor<16x4xf32>, tensor<8x16xf32>) -> tensor<2x4xf32> {
  ^bb0(%wb: tensor<8x4xf32>, %xb: tensor<2x8xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x4xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    %g = linalg.matmul ins(%xb, %wb : tensor<2x8xf32>, tensor<8x4xf32>)
                       outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
    %s = spmd.psum %g over ["i", "j"] : tensor<2x4xf32>
    spmd.yield %s : tensor<2x4xf32>
  }
  return %y : tensor<2x4xf32>
}

// Seed 000's matmul_basic, linear in a: psum over "j", output mapped over "i".
func.func @matmul_basic(%b: tensor<16x32xf32> {spmd.nonlinear}, %a: tensor<8x16xf32>) -> tensor<8x32xf32>
    attributes {spmd.transpose} {
  %c = spmd.shard_map @m42 in_specs = [[{"j"}, {}], [{"i"}, {"j"}]] out_specs = [[{"i"}, {}]]
      (%b, %a) : (tensor<16x32xf32>, tensor<8x16xf32>) -> tensor<8x32xf32> {
  ^bb0(%bb: tensor<8x32xf32>, %ab: tensor<2x8xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x32xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x32xf32>) -> tensor<2x32xf32>
    %p = linalg.matmul ins(%ab, %bb : tensor<2x8xf32>, tensor<8x32xf32>)
                       outs(%z : tensor<2x32xf32>) -> tensor<2x32xf32>
    %s = spmd.psum %p over ["j"] : tensor<2x32xf32>
    spmd.yield %s : tensor<2x32xf32>
  }
  return %c : tensor<8x32xf32>
}

// Collectives over one axis of two, invariant values yielded to mapped
// outputs, and an explicit pvary.
func.func @collectives_2d(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x4xf32>, tensor<16x8xf32>)
    attributes {spmd.transpose} {
  %r:3 = spmd.shard_map @m42 in_specs = [[{"i"}, {"j"}]]
                              out_specs = [[{"i"}, {"j"}], [], [{"i"}, {"j"}]]
      (%x) : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x4xf32>, tensor<16x8xf32>) {
  ^bb0(%xb: tensor<2x4xf32>):
    %a = spmd.psum %xb over ["j"] : tensor<2x4xf32>
    %b = spmd.all_gather %a over ["i"] dim 0 tiled : tensor<2x4xf32> -> tensor<8x4xf32>
    %bs = spmd.psum %b over ["i"] : tensor<8x4xf32>
    %v = spmd.pvary %b over ["j"] : tensor<8x4xf32>
    %d = spmd.psum_scatter %v over ["j"] dim 1 tiled : tensor<8x4xf32> -> tensor<8x2xf32>
    %d2 = spmd.all_to_all %d over ["j"] split 0 concat 1 : tensor<8x2xf32> -> tensor<4x4xf32>
    %d3 = spmd.ppermute %d2 over ["i"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]] : tensor<4x4xf32>
    %d4 = spmd.ppermute %d3 over ["i", "j"] pairs [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]] : tensor<4x4xf32>
    spmd.yield %a, %bs, %d4 : tensor<2x4xf32>, tensor<8x4xf32>, tensor<4x4xf32>
  }
  return %r#0, %r#1, %r#2 : tensor<8x8xf32>, tensor<8x4xf32>, tensor<16x8xf32>
}

// Seed 003's collective matmul (all-gather of the lhs over "j" overlapped
// with compute), linear in the lhs.
func.func @collective_matmul(%w: tensor<16x12xf32> {spmd.nonlinear}, %a: tensor<8x16xf32>)
    -> tensor<8x12xf32> attributes {spmd.transpose} {
  %out = spmd.shard_map @m42 in_specs = [[{}, {"j"}], [{"i"}, {"j"}]] out_specs = [[{"i"}, {"j"}]]
      (%w, %a) : (tensor<16x12xf32>, tensor<8x16xf32>) -> tensor<8x12xf32> {
  ^bb0(%rhs: tensor<16x6xf32>, %lhs: tensor<2x8xf32>):
    %axis_size = spmd.axis_size over ["j"] : index
    %idx = spmd.axis_index over ["j"] : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %chunk_size = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x6xf32>
    %zeros = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6xf32>) -> tensor<2x6xf32>
    %last = arith.subi %axis_size, %c1 : index
    %loop:2 = scf.for %i = %c0 to %last step %c1
        iter_args(%accum = %zeros, %l = %lhs) -> (tensor<2x6xf32>, tensor<2x8xf32>) {
      %s = arith.addi %idx, %i : index
      %m = arith.remui %s, %axis_size : index
      %start = arith.muli %m, %chunk_size : index
      %rhs_chunk = tensor.extract_slice %rhs[%start, 0] [8, 6] [1, 1] : tensor<16x6xf32> to tensor<8x6xf32>
      %next_accum = linalg.matmul ins(%l, %rhs_chunk : tensor<2x8xf32>, tensor<8x6xf32>)
                                  outs(%accum : tensor<2x6xf32>) -> tensor<2x6xf32>
      %next = spmd.ppermute %l over ["j"] pairs [[0, 1], [1, 0]] : tensor<2x8xf32>
      scf.yield %next_accum, %next : tensor<2x6xf32>, tensor<2x8xf32>
    }
    %s = arith.addi %idx, %last : index
    %m = arith.remui %s, %axis_size : index
    %start = arith.muli %m, %chunk_size : index
    %rhs_chunk = tensor.extract_slice %rhs[%start, 0] [8, 6] [1, 1] : tensor<16x6xf32> to tensor<8x6xf32>
    %result = linalg.matmul ins(%loop#1, %rhs_chunk : tensor<2x8xf32>, tensor<8x6xf32>)
                            outs(%loop#0 : tensor<2x6xf32>) -> tensor<2x6xf32>
    spmd.yield %result : tensor<2x6xf32>
  }
  return %out : tensor<8x12xf32>
}

// The data-parallel loss with the batch over both axes.
func.func @dp_loss_2d(%inputs: tensor<64x16xf32> {spmd.nonlinear}, %dparams: tensor<16x4xf32>)
    -> tensor<1xf32> attributes {spmd.transpose} {
  %l = spmd.shard_map @m42 in_specs = [[{"i", "j"}], []] out_specs = [[]]
      (%inputs, %dparams) : (tensor<64x16xf32>, tensor<16x4xf32>) -> tensor<1xf32> {
  ^bb0(%in: tensor<8x16xf32>, %p: tensor<16x4xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x4xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
    %pred = linalg.matmul ins(%in, %p : tensor<8x16xf32>, tensor<16x4xf32>)
                          outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
    %flat = tensor.collapse_shape %pred [[0, 1]] : tensor<8x4xf32> into tensor<32xf32>
    %row = tensor.expand_shape %flat [[0, 1]] output_shape [1, 32] : tensor<32xf32> into tensor<1x32xf32>
    %e2 = tensor.empty() : tensor<1xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1xf32>) -> tensor<1xf32>
    %total = linalg.reduce ins(%row : tensor<1x32xf32>) outs(%z2 : tensor<1xf32>) dimensions = [1]
      (%a: f32, %acc: f32) {
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      }
    %n = arith.constant dense<8.0> : tensor<1xf32>
    %local = arith.divf %total, %n : tensor<1xf32>
    %global = spmd.pmean %local over ["i", "j"] : tensor<1xf32>
    spmd.yield %global : tensor<1xf32>
  }
  return %l : tensor<1xf32>
}
