// RUN: trellis-opt %s --split-input-file --trellis-global-to-manual | FileCheck %s

// Seed 003's auto-mode example: In[8,2048] P('X','Y') x W[2048,8192]
// P('Y',None) with the output P('X',None) on a 4x2 mesh is a local
// [2,1024] x [1024,8192] matmul and one all-reduce over Y.
trellis.mesh @mesh = <["X"=4, "Y"=2]>
// CHECK-LABEL: func.func @seed003_auto
// CHECK: spmd.shard_map @mesh in_specs = {{\[\[}}{"X"}, {"Y"}], [{"Y"}, {}]] out_specs = {{\[\[}}{"X"}, {}]] check_vma = false
// CHECK-NEXT: ^bb0(%[[IN:.*]]: tensor<2x1024xf32>, %[[W:.*]]: tensor<1024x8192xf32>):
// CHECK-NOT: spmd.
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[IN]], %[[W]] : tensor<2x1024xf32>, tensor<1024x8192xf32>) outs(%{{.*}} : tensor<2x8192xf32>)
// CHECK-NEXT: %[[SUM:.*]] = spmd.psum %[[MM]] over ["Y"] : tensor<2x8192xf32>
// CHECK-NEXT: spmd.yield %[[SUM]] : tensor<2x8192xf32>
func.func @seed003_auto(%in: tensor<8x2048xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"X"}, {"Y"}]>},
                        %w: tensor<2048x8192xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"Y"}, {}]>})
    -> (tensor<8x8192xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"X"}, {}]>}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8192xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8192xf32>) -> tensor<8x8192xf32>
  %out = linalg.matmul ins(%in, %w : tensor<8x2048xf32>, tensor<2048x8192xf32>) outs(%f : tensor<8x8192xf32>) -> tensor<8x8192xf32>
  return %out : tensor<8x8192xf32>
}

// -----

// Seed 002/003's einsum with out_sharding=P('X','Y'): the contraction is
// split over X, the result asks for rows over X: a local matmul and a
// reduce-scatter, never an all-reduce.
trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
// CHECK-LABEL: func.func @reduce_scatter
// CHECK: ^bb0(%[[A:.*]]: tensor<16x8xf32>, %[[B:.*]]: tensor<8x8xf32>):
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<16x8xf32>, tensor<8x8xf32>) outs(%{{.*}} : tensor<16x8xf32>)
// CHECK-NEXT: %[[RS:.*]] = spmd.psum_scatter %[[MM]] over ["X"] dim 0 tiled : tensor<16x8xf32> -> tensor<8x8xf32>
// CHECK-NOT: spmd.psum
// CHECK: spmd.yield %[[RS]]
func.func @reduce_scatter(%x: tensor<16x16xf32, #trellis.sharding<@mesh, [{}, {"X"}]>>,
                          %w: tensor<16x32xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>)
    -> tensor<16x32xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>) -> tensor<16x32xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
  %y = linalg.matmul ins(%x, %w : tensor<16x16xf32, #trellis.sharding<@mesh, [{}, {"X"}]>>, tensor<16x32xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>)
                     outs(%f : tensor<16x32xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>) -> tensor<16x32xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
  return %y : tensor<16x32xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
}

// -----

// Reshards with few collectives: an axis moving between dimensions is one
// all_to_all; reordered axes are one ppermute; removing a split is one
// all_gather; adding one is a local slice at the device's index.
trellis.mesh @m24 = <["a"=2, "b"=4]>

// CHECK-LABEL: func.func @axis_move
// CHECK: spmd.all_to_all %{{.*}} over ["a"] split 1 concat 0 : tensor<4x16xf32> -> tensor<8x8xf32>
// CHECK-NEXT: spmd.yield
func.func @axis_move(%x: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m24, [{"a"}, {}]>})
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m24, [{}, {"a"}]>}) {
  return %x : tensor<8x16xf32>
}

// Device (a, b) holds block 4a+b and needs block 2b+a.
// CHECK-LABEL: func.func @axis_reorder
// CHECK: spmd.ppermute %{{.*}} over ["a", "b"] pairs {{\[\[}}0, 0], [2, 1], [4, 2], [6, 3], [1, 4], [3, 5], [5, 6], [7, 7]] : tensor<1x16xf32>
// CHECK-NEXT: spmd.yield
func.func @axis_reorder(%x: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m24, [{"a", "b"}, {}]>})
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m24, [{"b", "a"}, {}]>}) {
  return %x : tensor<8x16xf32>
}

// Axes of different sizes trading dimensions: each 4x4 target block is two
// 2x4 pieces of current blocks; a device holds at most one of them, so two
// ppermute rounds of 32 B deliver the rest (block routing: 64 B per
// device, where gathering b and moving a with an all_to_all sent 320 B).
// CHECK-LABEL: func.func @dims_swap
// CHECK-NOT: spmd.all_gather
// CHECK-NOT: spmd.all_to_all
// CHECK: spmd.ppermute %{{.*}} over ["a", "b"] pairs {{.*}} : tensor<2x4xf32>
// CHECK: spmd.ppermute %{{.*}} over ["a", "b"] pairs {{.*}} : tensor<2x4xf32>
// CHECK-NOT: spmd.all
// CHECK: spmd.yield %{{.*}} : tensor<4x4xf32>
func.func @dims_swap(%x: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m24, [{"b"}, {"a"}]>})
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m24, [{"a"}, {"b"}]>}) {
  return %x : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @gather
// CHECK: spmd.all_gather %{{.*}} over ["a"] dim 0 tiled : tensor<4x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: spmd.all_gather %{{.*}} over ["b"] dim 1 tiled : tensor<8x4xf32> -> tensor<8x16xf32>
// CHECK-NEXT: spmd.yield
func.func @gather(%x: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m24, [{"a"}, {"b"}]>})
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m24, [{}, {}]>}) {
  return %x : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @slice
// CHECK-NOT: spmd.all
// CHECK: spmd.axis_index over ["b"] : index
// CHECK: tensor.extract_slice
// CHECK: spmd.axis_index over ["a"] : index
// CHECK: tensor.extract_slice %{{.*}} : tensor<2x16xf32> to tensor<2x8xf32>
func.func @slice(%x: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m24, [{}, {}]>})
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m24, [{"b"}, {"a"}]>}) {
  return %x : tensor<8x16xf32>
}

// Collectives have side effects, so CSE cannot merge repeated reshards:
// the partitioner makes one gather for three uses (slices of 4 that no
// split of x's blocks can serve by halo).
// CHECK-LABEL: func.func @one_gather_for_three_uses
// CHECK-COUNT-1: spmd.all_gather
// CHECK-NOT: spmd.all_gather
// CHECK: spmd.yield
func.func @one_gather_for_three_uses(%x: tensor<64xf32> {trellis.sharding = #trellis.sharding<@m24, [{"a", "b"}]>})
    -> (tensor<4xf32> {trellis.sharding = #trellis.sharding<@m24, [{}]>}) {
  %l = tensor.extract_slice %x[0] [4] [1] : tensor<64xf32> to tensor<4xf32>
  %c = tensor.extract_slice %x[20] [4] [1] : tensor<64xf32> to tensor<4xf32>
  %r = tensor.extract_slice %x[40] [4] [1] : tensor<64xf32> to tensor<4xf32>
  %s = arith.addf %l, %r : tensor<4xf32>
  %d = arith.subf %s, %c : tensor<4xf32>
  return %d : tensor<4xf32>
}

// A stencil written as shifted slices (x[:-2] + x[2:] - x[1:-1] of 64
// elements over 8 devices): each slice of 62 is split like x (blocks of
// 8, the last with 2 of padding) and reads its window by halo, one and
// two elements from the next device (12 B per device); the result is
// computed in blocks and gathered once (uneven results leave whole),
// where x itself was gathered before (224 B, and the op ran whole).
// CHECK-LABEL: func.func @shifted_slices
// CHECK-NOT: spmd.all_gather
// CHECK: spmd.ppermute %{{.*}} : tensor<1xf32>
// CHECK: spmd.ppermute %{{.*}} : tensor<2xf32>
// CHECK: arith.addf %{{.*}} : tensor<8xf32>
// CHECK: arith.subf %{{.*}} : tensor<8xf32>
// CHECK: spmd.all_gather
// CHECK-NOT: spmd.all_gather
func.func @shifted_slices(%x: tensor<64xf32> {trellis.sharding = #trellis.sharding<@m24, [{"a", "b"}]>})
    -> tensor<62xf32> {
  %l = tensor.extract_slice %x[0] [62] [1] : tensor<64xf32> to tensor<62xf32>
  %c = tensor.extract_slice %x[1] [62] [1] : tensor<64xf32> to tensor<62xf32>
  %r = tensor.extract_slice %x[2] [62] [1] : tensor<64xf32> to tensor<62xf32>
  %s = arith.addf %l, %r : tensor<62xf32>
  %d = arith.subf %s, %c : tensor<62xf32>
  return %d : tensor<62xf32>
}

// -----

// A partially-manual shard_map: x is manual in the body, y (automatic)
// splits the batch; the body's psum over x runs on y-blocks.
trellis.mesh @m = <["x"=2, "y"=4]>
// CHECK-LABEL: func.func @partial
// CHECK: spmd.shard_map @m in_specs = {{\[\[}}{"y"}, {"x"}]] out_specs = {{\[\[}}{"y"}, {}]] check_vma = false
// CHECK-NEXT: ^bb0(%[[B:.*]]: tensor<2x8xf32>):
// CHECK-NEXT: %[[E:.*]] = math.exp %[[B]] : tensor<2x8xf32>
// CHECK-NEXT: %[[S:.*]] = spmd.psum %[[E]] over ["x"] : tensor<2x8xf32>
// CHECK-NEXT: spmd.yield %[[S]] : tensor<2x8xf32>
func.func @partial(%a: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"y"}, {"x"}]>}) -> tensor<8x8xf32> {
  %r = spmd.shard_map @m manual_axes = ["x"] in_specs = [[{}, {"x"}]] out_specs = [[{}, {}]]
      (%a) : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%b: tensor<8x8xf32>):
    %e = math.exp %b : tensor<8x8xf32>
    %s = spmd.psum %e over ["x"] : tensor<8x8xf32>
    spmd.yield %s : tensor<8x8xf32>
  }
  return %r : tensor<8x8xf32>
}

// -----

// auto_axes inside explicit code is inlined. Its body's types name only
// the explicit axis Y; X is automatic there, so propagation keeps the
// input's X split through the elementwise body and nothing is gathered
// (issue 25: this used to gather X and slice it back).
trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
// CHECK-LABEL: func.func @auto_region
// CHECK: spmd.shard_map @mesh in_specs = {{\[\[}}{"X"}, {"Y"}]] out_specs = {{\[\[}}{"X"}, {"Y"}]]
// CHECK-NOT: trellis.auto_axes
// CHECK-NOT: spmd.all_gather
// CHECK: arith.mulf %{{.*}} : tensor<4x2xf32>
// CHECK-NEXT: spmd.yield
func.func @auto_region(%x: tensor<8x8xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>)
    -> tensor<8x8xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>> {
  %z = trellis.auto_axes @mesh ["X"] (%x)
      : (tensor<8x8xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>)
     -> tensor<8x8xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>> {
  ^bb0(%y: tensor<8x8xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>):
    %r = arith.mulf %y, %y : tensor<8x8xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>
    trellis.yield %r : tensor<8x8xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>
  }
  return %z : tensor<8x8xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
}

// -----

// Partial sums are carried through linear ops: two split contractions
// subtracted need one psum, after the subtraction.
trellis.mesh @m = <["x"=2, "y"=4]>
// CHECK-LABEL: func.func @two_partials
// CHECK: %[[P1:.*]] = linalg.matmul
// CHECK: %[[P2:.*]] = linalg.matmul
// CHECK-NOT: spmd.psum
// CHECK: %[[D:.*]] = arith.subf %[[P1]], %[[P2]] : tensor<8x8xf32>
// CHECK-NEXT: %[[S:.*]] = spmd.psum %[[D]] over ["x"] : tensor<8x8xf32>
// CHECK-NEXT: math.tanh %[[S]]
// CHECK-NOT: spmd.psum
func.func @two_partials(%a1: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>},
                        %b1: tensor<16x8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>},
                        %a2: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>},
                        %b2: tensor<16x8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %p1 = linalg.matmul ins(%a1, %b1 : tensor<8x16xf32>, tensor<16x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %p2 = linalg.matmul ins(%a2, %b2 : tensor<8x16xf32>, tensor<16x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = arith.subf %p1, %p2 : tensor<8x8xf32>
  %t = math.tanh %s : tensor<8x8xf32>
  return %t : tensor<8x8xf32>
}

// -----

// Scalar arguments and results cross the shard_map as replicated 0-d
// tensors; the function keeps its signature.
trellis.mesh @m = <["a"=2]>
// CHECK-LABEL: func.func @scalars(
// CHECK-SAME: %[[S:[a-z0-9]+]]: f32, %[[X:[a-z0-9]+]]: tensor<4xf32>
// CHECK-SAME: -> (tensor<4xf32> {{.*}}, i32)
// CHECK: %[[T:.*]] = tensor.from_elements %[[S]] : tensor<f32>
// CHECK: %[[M:.*]]:2 = spmd.shard_map @m in_specs = {{\[\[\], \[\{"a"\}\]\]}} out_specs = {{\[\[\{"a"\}\], \[\]\]}} {{.*}}(%[[T]], %[[X]]) : (tensor<f32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<i32>)
// CHECK: ^bb0(%[[TB:.*]]: tensor<f32>, %{{.*}}: tensor<2xf32>):
// CHECK: tensor.extract %[[TB]][] : tensor<f32>
// CHECK: tensor.from_elements %{{.*}} : tensor<i32>
// CHECK: spmd.yield
// CHECK: %[[R:.*]] = tensor.extract %[[M]]#1[] : tensor<i32>
// CHECK: return %[[M]]#0, %[[R]] : tensor<4xf32>, i32
func.func @scalars(%s: f32, %x: tensor<4xf32> {trellis.sharding = #trellis.sharding<@m, [{"a"}]>}) -> (tensor<4xf32>, i32) {
  %t = tensor.splat %s : tensor<4xf32>
  %y = arith.addf %x, %t : tensor<4xf32>
  %i = arith.fptosi %s : f32 to i32
  return %y, %i : tensor<4xf32>, i32
}

// -----

// linalg.index yields local loop indices: a split loop's index gets its
// block's offset (axis_index * block size); a whole loop's index is kept.
trellis.mesh @m = <["a"=2, "b"=4]>
// CHECK-LABEL: func.func @index_offset
// CHECK: %[[BLOCK:.*]] = arith.constant 4 : index
// CHECK: %[[RANK:.*]] = spmd.axis_index over ["a"] : index
// CHECK-NEXT: %[[OFFSET:.*]] = arith.muli %[[RANK]], %[[BLOCK]] : index
// CHECK-NEXT: linalg.generic {{.*}} ins(%{{.*}} : tensor<4x16xf32>)
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[GI:.*]] = arith.addi %[[I]], %[[OFFSET]] : index
// CHECK-NEXT: %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT: arith.addi %[[GI]], %[[J]] : index
func.func @index_offset(%x: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"a"}, {}]>})
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"a"}, {}]>}) {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    %c = arith.index_cast %s : index to i32
    %f = arith.sitofp %c : i32 to f32
    %y = arith.addf %in, %f : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// A slice with a dynamic size: the size is an operand the local slice must
// use too (it once kept the global value, and the verifier met a null
// operand). Dimension 1 is whole and split over X: 2 columns per device.
trellis.mesh @mesh = <["X"=2]>
// CHECK-LABEL: func.func @dynamic_slice_size
// CHECK: ^bb0(%[[X:.*]]: tensor<8x2xf32>, %[[N:.*]]: tensor<index>):
// CHECK: %[[SIZE:.*]] = tensor.extract %[[N]][] : tensor<index>
// CHECK: tensor.extract_slice %[[X]][0, 0] [%[[SIZE]], 2] [1, 1] : tensor<8x2xf32> to tensor<?x2xf32>
func.func @dynamic_slice_size(%x: tensor<8x4xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"X"}]>}, %n: index)
    -> tensor<?x4xf32> {
  %s = tensor.extract_slice %x[0, 0] [%n, 4] [1, 1] : tensor<8x4xf32> to tensor<?x4xf32>
  return %s : tensor<?x4xf32>
}

// -----

// An empty slice is no window (a block of 0 would give it a negative
// length); the sliced operand is gathered like any whole read.
trellis.mesh @m = <["x"=4]>
// CHECK-LABEL: func.func @empty_slice
// CHECK: tensor.extract_slice {{.*}} to tensor<0xf32>
func.func @empty_slice(%x: tensor<16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>},
                       %y: tensor<0xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<0xf32> {
  %a = tensor.extract_slice %x[0] [0] [2] : tensor<16xf32> to tensor<0xf32>
  %b = arith.addf %a, %y : tensor<0xf32>
  return %b : tensor<0xf32>
}
