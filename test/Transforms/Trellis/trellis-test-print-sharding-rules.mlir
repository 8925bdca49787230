// RUN: trellis-opt %s --trellis-test-print-sharding-rules --verify-diagnostics -o /dev/null

func.func @rules(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>, %c: tensor<2x4xf32>,
                 %x: tensor<4x6xf32>, %bb: tensor<3x2x8xf32>, %cc: tensor<3x8x4xf32>,
                 %dd: tensor<3x2x4xf32>, %v: tensor<6xf32>, %s: f32, %i: index,
                 %v4: tensor<4xf32>, %x41: tensor<4x1xf32>) {
  // Contractions: the contracted loop is a reduction factor.
  // expected-remark @below {{sharding rule: ([i, k], [k, j], [i, j]) -> ([i, j]) {i=2, j=4, k=8} reduction={k}}}
  %m = linalg.matmul ins(%a, %b : tensor<2x8xf32>, tensor<8x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  // expected-remark @below {{sharding rule: ([i, j, l], [i, l, k], [i, j, k]) -> ([i, j, k]) {i=3, j=2, k=4, l=8} reduction={l}}}
  %bm = linalg.batch_matmul ins(%bb, %cc : tensor<3x2x8xf32>, tensor<3x8x4xf32>) outs(%dd : tensor<3x2x4xf32>) -> tensor<3x2x4xf32>
  // Elementwise ops share every dimension; scalars have no dimensions.
  // expected-remark @below {{sharding rule: ([i, j], [i, j]) -> ([i, j]) {i=4, j=6}}}
  %e = arith.addf %x, %x : tensor<4x6xf32>
  // expected-remark @below {{sharding rule: ([i, j]) -> ([i, j]) {i=4, j=6}}}
  %t = math.tanh %x : tensor<4x6xf32>
  // Nullary ops.
  // expected-remark @below {{sharding rule: () -> ([i, j]) {i=6, j=4}}}
  %empty = tensor.empty() : tensor<6x4xf32>
  // expected-remark @below {{sharding rule: () -> ([i]) {i=3}}}
  %cst = arith.constant dense<1.0> : tensor<3xf32>
  // expected-remark @below {{sharding rule: ([], [i, j]) -> ([i, j]) {i=6, j=4}}}
  %fill = linalg.fill ins(%s : f32) outs(%empty : tensor<6x4xf32>) -> tensor<6x4xf32>
  // Transpose, broadcast and reductions from their indexing maps.
  // expected-remark @below {{sharding rule: ([j, i], [i, j]) -> ([i, j]) {i=6, j=4}}}
  %tr = linalg.transpose ins(%x : tensor<4x6xf32>) outs(%empty : tensor<6x4xf32>) permutation = [1, 0]
  %e46 = tensor.empty() : tensor<4x6xf32>
  // expected-remark @-1 {{sharding rule: () -> ([i, j]) {i=4, j=6}}}
  // expected-remark @below {{sharding rule: ([j], [i, j]) -> ([i, j]) {i=4, j=6}}}
  %bc = linalg.broadcast ins(%v : tensor<6xf32>) outs(%e46 : tensor<4x6xf32>) dimensions = [0]
  // expected-remark @below {{sharding rule: ([i, j], [i]) -> ([i]) {i=4, j=6} reduction={j}}}
  %red = linalg.reduce ins(%x : tensor<4x6xf32>) outs(%v4 : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  // A broadcast unit dimension (indexing map `0`) holds no factor.
  // expected-remark @below {{sharding rule: ([i, _], [i, j]) -> ([i, j]) {i=4, j=6}}}
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x41 : tensor<4x1xf32>) outs(%e46 : tensor<4x6xf32>) {
  ^bb0(%p: f32, %q: f32):
    linalg.yield %p : f32
  } -> tensor<4x6xf32>
  // Slicing at a static offset: the result's factor reads the source's
  // dimension through a window (x[2:5]: 1*j+[2,2]); at a dynamic offset the
  // sliced dimension must be whole.
  // expected-remark @below {{sharding rule: ([i, _]) -> ([i, j]) {i=4, j=3} window={#0.1=1*j+[2,2]}}}
  %sl = tensor.extract_slice %x[0, 2] [4, 3] [1, 1] : tensor<4x6xf32> to tensor<4x3xf32>
  // A slice whose last index wraps around int64 (3 * 2^62 + 2 reads
  // [2, 2 + 3 * 2^62) of 6 elements; the verifier wraps it to 2) and one
  // that writes outside its destination have no rule (no remark).
  %slw = tensor.extract_slice %x[0, 2] [4, 4] [1, 6148914691236517206] : tensor<4x6xf32> to tensor<4x4xf32>
  %insw = tensor.insert_slice %slw into %x[0, 2] [4, 4] [1, 6148914691236517206] : tensor<4x4xf32> into tensor<4x6xf32>
  // expected-remark @below {{sharding rule: ([i, j], []) -> ([i]) {i=4, j=6} need_replication={j}}}
  %sl1 = tensor.extract_slice %x[0, %i] [4, 1] [1, 1] : tensor<4x6xf32> to tensor<4xf32>
  // expected-remark @below {{sharding rule: ([i, k], [i, j], []) -> ([i, j]) {i=4, j=6, k=3} need_replication={j, k}}}
  %ins = tensor.insert_slice %sl into %x[0, %i] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<4x6xf32>
  // expected-remark @below {{sharding rule: ([i, j], [i, k]) -> ([i, l]) {i=4, j=6, k=6, l=12} need_replication={j, k, l}}}
  %cat = tensor.concat dim(1) %x, %x : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x12xf32>
  // expected-remark @below {{sharding rule: ([i, j]) -> ([i, k]) {i=4, j=6, k=8} need_replication={j, k}}}
  %pad = tensor.pad %x low[0, 1] high[0, 1] {
  ^bb0(%p0: index, %p1: index):
    tensor.yield %s : f32
  } : tensor<4x6xf32> to tensor<4x8xf32>
  // Reshapes: a merged or split dimension is a list of factors.
  // expected-remark @below {{sharding rule: ([i, j]) -> ([(i, j)]) {i=4, j=6}}}
  %r = tensor.collapse_shape %x [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  // expected-remark @below {{sharding rule: ([(i, j, k)]) -> ([i, j, k]) {i=2, j=3, k=4}}}
  %q = tensor.expand_shape %r [[0, 1, 2]] output_shape [2, 3, 4] : tensor<24xf32> into tensor<2x3x4xf32>
  // A reassociation the verifier reads modulo 2^32 has no rule (no remark).
  %bad = tensor.expand_shape %r [[4294967296, 1, 2]] output_shape [2, 3, 4] : tensor<24xf32> into tensor<2x3x4xf32>
  %badc = tensor.collapse_shape %x [[4294967296, 1]] : tensor<4x6xf32> into tensor<24xf32>
  return
}

// Windows: the parallel loop of `stride * o + offset` stays a factor (the
// partitioner may split it and exchange halos); the window loops must be
// whole; a loop in any other compound index must be whole.
func.func @windows(%p: tensor<18xf32>, %w: tensor<3xf32>, %o: tensor<16xf32>,
                   %q: tensor<17xf32>, %win: tensor<3xf32>, %o8: tensor<8xf32>,
                   %o3: tensor<3x3xf32>) {
  // expected-remark @below {{sharding rule: ([_], [j], [i]) -> ([i]) {i=16, j=3} need_replication={j} window={#0.0=1*i+[0,2]}}}
  %c = linalg.conv_1d ins(%p, %w : tensor<18xf32>, tensor<3xf32>) outs(%o : tensor<16xf32>) -> tensor<16xf32>
  // Stride 2: 2 * i + k.
  // expected-remark @below {{sharding rule: ([_], [j], [i]) -> ([i]) {i=8, j=3} need_replication={j} window={#0.0=2*i+[0,2]}}}
  %pool = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i * 2 + k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>],
                          iterator_types = ["parallel", "reduction"]}
      ins(%q, %win : tensor<17xf32>, tensor<3xf32>) outs(%o8 : tensor<8xf32>) {
  ^bb0(%a: f32, %unused: f32, %acc: f32):
    %mx = arith.maximumf %a, %acc : f32
    linalg.yield %mx : f32
  } -> tensor<8xf32>
  // Shifts: one window per read.
  // expected-remark @below {{sharding rule: ([_], [_], [i]) -> ([i]) {i=16} window={#0.0=1*i+[1,1], #1.0=1*i+[2,2]}}}
  %shift = linalg.generic {indexing_maps = [affine_map<(i) -> (i + 1)>, affine_map<(i) -> (i + 2)>, affine_map<(i) -> (i)>],
                           iterator_types = ["parallel"]}
      ins(%p, %p : tensor<18xf32>, tensor<18xf32>) outs(%o : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  // Two parallel loops in one index (a diagonal) are no window.
  // expected-remark @below {{sharding rule: ([_], [i, j]) -> ([i, j]) {i=3, j=3} need_replication={i, j}}}
  %diag = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i + j)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<17xf32>) outs(%o3 : tensor<3x3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    linalg.yield %a : f32
  } -> tensor<3x3xf32>
  return
}
