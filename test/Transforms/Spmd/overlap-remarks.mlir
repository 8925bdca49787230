// With `remarks`, each overlap rewrite is reported at the collective it
// rewrote (trellis-run --overlap prints them); without it, nothing is
// reported (the other tests of these passes would see the remarks).
// RUN: trellis-opt %s --split-input-file -verify-diagnostics --pass-pipeline='builtin.module(spmd-pipeline-collectives{remarks},spmd-chunk-all-to-all{remarks threshold-bytes=0},spmd-collective-matmul{remarks force})' -o /dev/null
// RUN: sed '/expected-remark/d' %s | trellis-opt --split-input-file --pass-pipeline='builtin.module(spmd-pipeline-collectives,spmd-chunk-all-to-all{threshold-bytes=0},spmd-collective-matmul{force})' -o /dev/null 2>&1 | count 0

trellis.mesh @mesh = <["d"=4]>

func.func @layers(%x: tensor<2x8xf32>, %wb: tensor<4x2x8xf32>, %acc0: tensor<4x2x8xf32>)
    -> (tensor<2x8xf32>, tensor<4x2x8xf32>) attributes {spmd.mesh = @mesh} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.for %l = %c0 to %c4 step %c1 iter_args(%a = %x, %acc = %acc0) -> (tensor<2x8xf32>, tensor<4x2x8xf32>) {
    %ws = tensor.extract_slice %wb[%l, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<4x2x8xf32> to tensor<2x8xf32>
    // expected-remark @below {{prefetched: iteration k starts iteration k + 1's all_gather (4 iterations, the last peeled)}}
    %w = spmd.all_gather %ws over ["d"] dim 0 tiled : tensor<2x8xf32> -> tensor<8x8xf32>
    %e = tensor.empty() : tensor<2x8xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
    %m = linalg.matmul ins(%a, %w : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
    %e8 = tensor.empty() : tensor<8x8xf32>
    %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8x8xf32>) -> tensor<8x8xf32>
    %dw = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]
        ins(%a, %a : tensor<2x8xf32>, tensor<2x8xf32>) outs(%z8 : tensor<8x8xf32>) -> tensor<8x8xf32>
    // expected-remark @below {{deferred: iteration k + 1 waits for iteration k's psum_scatter (4 iterations, the first peeled)}}
    %rs = spmd.psum_scatter %dw over ["d"] dim 0 tiled : tensor<8x8xf32> -> tensor<2x8xf32>
    %old = tensor.extract_slice %acc[%l, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<4x2x8xf32> to tensor<2x8xf32>
    %sum = arith.addf %old, %rs : tensor<2x8xf32>
    %new = tensor.insert_slice %sum into %acc[%l, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<2x8xf32> into tensor<4x2x8xf32>
    scf.yield %m, %new : tensor<2x8xf32>, tensor<4x2x8xf32>
  }
  return %r#0, %r#1 : tensor<2x8xf32>, tensor<4x2x8xf32>
}

// -----

trellis.mesh @mesh = <["x"=4]>

#e3 = affine_map<(a, b, c) -> (a, b, c)>

func.func @experts(%d: tensor<4x8x64xf32>) -> tensor<4x8x64xf32> attributes {spmd.mesh = @mesh} {
  // expected-remark @below {{split into 2 chunks along dimension 1 (1024 bytes to each device per chunk)}}
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8x64xf32> -> tensor<4x8x64xf32>
  %e = tensor.empty() : tensor<4x8x64xf32>
  %g = linalg.generic {indexing_maps = [#e3, #e3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<4x8x64xf32>) outs(%e : tensor<4x8x64xf32>) {
  ^bb0(%x: f32, %unused: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x8x64xf32>
  return %g : tensor<4x8x64xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

func.func @gather_matmul(%lhs: tensor<2x8xf32>, %rhs: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {spmd.mesh = @mesh} {
  // expected-remark @below {{rewritten as a collective matmul: a ring of 4 steps whose transfers overlap the chunk matmuls}}
  %g = spmd.all_gather %lhs over ["i"] dim 0 tiled : tensor<2x8xf32> -> tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %c = linalg.matmul ins(%g, %rhs : tensor<8x8xf32>, tensor<8x4xf32>) outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %c : tensor<8x4xf32>
}
