// Seed 003's MoE block (bench/overlap/moe.py, n=4, T=8, D=16, F=8):
// each all_to_all split into n - 1 ppermutes pipelined with the expert
// (run with --passes=spmd-async-collectives to overlap them).
// Generated; see moe.py's docstring.

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

    // Step s: row block (me + s) mod n goes to device me + s, the block
    // from me - s meets this device's expert, its result goes back.
    %me_i = spmd.axis_index over ["X"] : index
    %cn = arith.constant 4 : index
    %cC = arith.constant 8 : index
    %ce = tensor.empty() : tensor<32x8xf32>
    %comb0 = linalg.fill ins(%zero : f32) outs(%ce : tensor<32x8xf32>) -> tensor<32x8xf32>
    %ye = tensor.empty() : tensor<8x8xf32>
    %k0 = arith.constant 0 : index
    %dst0 = arith.addi %me_i, %k0 : index
    %blk0 = arith.remui %dst0, %cn : index
    %row0 = arith.muli %blk0, %cC : index
    %send0 = tensor.extract_slice %dispatch[%row0, 0] [8, 16] [1, 1] : tensor<32x16xf32> to tensor<8x16xf32>
    %k1 = arith.constant 1 : index
    %dst1 = arith.addi %me_i, %k1 : index
    %blk1 = arith.remui %dst1, %cn : index
    %row1 = arith.muli %blk1, %cC : index
    %send1 = tensor.extract_slice %dispatch[%row1, 0] [8, 16] [1, 1] : tensor<32x16xf32> to tensor<8x16xf32>
    %got1 = spmd.ppermute %send1 over ["X"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<8x16xf32>
    %k2 = arith.constant 2 : index
    %dst2 = arith.addi %me_i, %k2 : index
    %blk2 = arith.remui %dst2, %cn : index
    %row2 = arith.muli %blk2, %cC : index
    %send2 = tensor.extract_slice %dispatch[%row2, 0] [8, 16] [1, 1] : tensor<32x16xf32> to tensor<8x16xf32>
    %got2 = spmd.ppermute %send2 over ["X"] pairs [[0, 2], [1, 3], [2, 0], [3, 1]] : tensor<8x16xf32>
    %k3 = arith.constant 3 : index
    %dst3 = arith.addi %me_i, %k3 : index
    %blk3 = arith.remui %dst3, %cn : index
    %row3 = arith.muli %blk3, %cC : index
    %send3 = tensor.extract_slice %dispatch[%row3, 0] [8, 16] [1, 1] : tensor<32x16xf32> to tensor<8x16xf32>
    %got3 = spmd.ppermute %send3 over ["X"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]] : tensor<8x16xf32>
    %y0_0 = linalg.fill ins(%zero : f32) outs(%ye : tensor<8x8xf32>) -> tensor<8x8xf32>
    %y0 = linalg.matmul ins(%send0, %w : tensor<8x16xf32>, tensor<16x8xf32>) outs(%y0_0 : tensor<8x8xf32>) -> tensor<8x8xf32>
    %comb1 = tensor.insert_slice %y0 into %comb0[%row0, 0] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<32x8xf32>
    %y0_1 = linalg.fill ins(%zero : f32) outs(%ye : tensor<8x8xf32>) -> tensor<8x8xf32>
    %y1 = linalg.matmul ins(%got1, %w : tensor<8x16xf32>, tensor<16x8xf32>) outs(%y0_1 : tensor<8x8xf32>) -> tensor<8x8xf32>
    %back1 = spmd.ppermute %y1 over ["X"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]] : tensor<8x8xf32>
    %comb2 = tensor.insert_slice %back1 into %comb1[%row1, 0] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<32x8xf32>
    %y0_2 = linalg.fill ins(%zero : f32) outs(%ye : tensor<8x8xf32>) -> tensor<8x8xf32>
    %y2 = linalg.matmul ins(%got2, %w : tensor<8x16xf32>, tensor<16x8xf32>) outs(%y0_2 : tensor<8x8xf32>) -> tensor<8x8xf32>
    %back2 = spmd.ppermute %y2 over ["X"] pairs [[0, 2], [1, 3], [2, 0], [3, 1]] : tensor<8x8xf32>
    %comb3 = tensor.insert_slice %back2 into %comb2[%row2, 0] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<32x8xf32>
    %y0_3 = linalg.fill ins(%zero : f32) outs(%ye : tensor<8x8xf32>) -> tensor<8x8xf32>
    %y3 = linalg.matmul ins(%got3, %w : tensor<8x16xf32>, tensor<16x8xf32>) outs(%y0_3 : tensor<8x8xf32>) -> tensor<8x8xf32>
    %back3 = spmd.ppermute %y3 over ["X"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<8x8xf32>
    %combined = tensor.insert_slice %back3 into %comb3[%row3, 0] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<32x8xf32>

    // out = mask @ combined
    %oe = tensor.empty() : tensor<8x8xf32>
    %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x8xf32>) -> tensor<8x8xf32>
    %o = linalg.matmul ins(%mask, %combined : tensor<8x32xf32>, tensor<32x8xf32>) outs(%o0 : tensor<8x8xf32>) -> tensor<8x8xf32>
    spmd.yield %o : tensor<8x8xf32>
  }
  return %out : tensor<32x8xf32>
}
