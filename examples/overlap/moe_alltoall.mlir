// Seed 003's MoE block (bench/overlap/moe.py, n=4, T=8, D=16, F=8):
// both all_to_alls whole. Generated; see moe.py's docstring.

trellis.mesh @mesh = <["X"=4]>

func.func @moe(%W: tensor<4x16x8xf32> {trellis.name = "W"},
               %A: tensor<32x16xf32> {trellis.name = "A"},
               %B: tensor<32xi32> {trellis.name = "B"}) -> tensor<32x8xf32> {
  %out = spmd.shard_map @mesh in_specs = [[{"X"}], [{"X"}], [{"X"}]] out_specs = [[{"X"}]]
      (%W, %A, %B) : (tensor<4x16x8xf32>, tensor<32x16xf32>, tensor<32xi32>) -> tensor<32x8xf32> {
  ^bb0(%w3: tensor<1x16x8xf32>, %a: tensor<8x16xf32>, %braw: tensor<8xi32>):
    %zero = arith.constant 0.0 : f32
    %zero_i = arith.constant 0 : i32
    %experts = arith.constant 4 : i32
    %w = tensor.collapse_shape %w3 [[0, 1], [2]] : tensor<1x16x8xf32> into tensor<16x8xf32>

    // b[t] = B[t] mod n
    %be = tensor.empty() : tensor<8xi32>
    %b = linalg.generic {indexing_maps = [affine_map<(t) -> (t)>, affine_map<(t) -> (t)>],
                         iterator_types = ["parallel"]}
        ins(%braw : tensor<8xi32>) outs(%be : tensor<8xi32>) {
    ^bb0(%x: i32, %unused: i32):
      %r = arith.remui %x, %experts : i32
      linalg.yield %r : i32
    } -> tensor<8xi32>

    // pos[t] = #{t' < t : b[t'] == b[t]}
    %p0 = linalg.fill ins(%zero_i : i32) outs(%be : tensor<8xi32>) -> tensor<8xi32>
    %pos = linalg.generic {indexing_maps = [affine_map<(t, u) -> (t)>,
                                            affine_map<(t, u) -> (u)>,
                                            affine_map<(t, u) -> (t)>],
                           iterator_types = ["parallel", "reduction"]}
        ins(%b, %b : tensor<8xi32>, tensor<8xi32>) outs(%p0 : tensor<8xi32>) {
    ^bb0(%bt: i32, %bu: i32, %acc: i32):
      %ti = linalg.index 0 : index
      %ui = linalg.index 1 : index
      %earlier = arith.cmpi ult, %ui, %ti : index
      %same = arith.cmpi eq, %bt, %bu : i32
      %both = arith.andi %earlier, %same : i1
      %inc = arith.extui %both : i1 to i32
      %sum = arith.addi %acc, %inc : i32
      linalg.yield %sum : i32
    } -> tensor<8xi32>

    // mask[t, e * C + c] = (b[t] == e && pos[t] == c)
    %me = tensor.empty() : tensor<8x32xf32>
    %mask = linalg.generic {indexing_maps = [affine_map<(t, j) -> (t)>,
                                             affine_map<(t, j) -> (t)>,
                                             affine_map<(t, j) -> (t, j)>],
                            iterator_types = ["parallel", "parallel"]}
        ins(%b, %pos : tensor<8xi32>, tensor<8xi32>) outs(%me : tensor<8x32xf32>) {
    ^bb0(%bt: i32, %pt: i32, %unused: f32):
      %ji = linalg.index 1 : index
      %j = arith.index_cast %ji : index to i32
      %cap = arith.constant 8 : i32
      %slot = arith.muli %bt, %cap : i32
      %at = arith.addi %slot, %pt : i32
      %hit = arith.cmpi eq, %j, %at : i32
      %v = arith.uitofp %hit : i1 to f32
      linalg.yield %v : f32
    } -> tensor<8x32xf32>

    // dispatch = mask^T @ a: row block e holds the tokens for expert e.
    %de = tensor.empty() : tensor<32x16xf32>
    %d0 = linalg.fill ins(%zero : f32) outs(%de : tensor<32x16xf32>) -> tensor<32x16xf32>
    %dispatch = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                               affine_map<(m, n, k) -> (k, n)>,
                                               affine_map<(m, n, k) -> (m, n)>]
        ins(%mask, %a : tensor<8x32xf32>, tensor<8x16xf32>) outs(%d0 : tensor<32x16xf32>) -> tensor<32x16xf32>

    // Every expert's tokens to its device, the expert, and back.
    %d3 = tensor.expand_shape %dispatch [[0, 1], [2]] output_shape [4, 8, 16] : tensor<32x16xf32> into tensor<4x8x16xf32>
    %r3 = spmd.all_to_all %d3 over ["X"] split 0 concat 0 : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
    %received = tensor.collapse_shape %r3 [[0, 1], [2]] : tensor<4x8x16xf32> into tensor<32x16xf32>
    %ye = tensor.empty() : tensor<32x8xf32>
    %y0 = linalg.fill ins(%zero : f32) outs(%ye : tensor<32x8xf32>) -> tensor<32x8xf32>
    %y = linalg.matmul ins(%received, %w : tensor<32x16xf32>, tensor<16x8xf32>) outs(%y0 : tensor<32x8xf32>) -> tensor<32x8xf32>
    %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [4, 8, 8] : tensor<32x8xf32> into tensor<4x8x8xf32>
    %c3 = spmd.all_to_all %y3 over ["X"] split 0 concat 0 : tensor<4x8x8xf32> -> tensor<4x8x8xf32>
    %combined = tensor.collapse_shape %c3 [[0, 1], [2]] : tensor<4x8x8xf32> into tensor<32x8xf32>

    // out = mask @ combined
    %oe = tensor.empty() : tensor<8x8xf32>
    %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x8xf32>) -> tensor<8x8xf32>
    %o = linalg.matmul ins(%mask, %combined : tensor<8x32xf32>, tensor<32x8xf32>) outs(%o0 : tensor<8x8xf32>) -> tensor<8x8xf32>
    spmd.yield %o : tensor<8x8xf32>
  }
  return %out : tensor<32x8xf32>
}
