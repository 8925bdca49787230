// RUN: trellis-opt %s --pass-pipeline='builtin.module(spmd-chunk-all-to-all{threshold-bytes=0})' --split-input-file | FileCheck %s
// RUN: trellis-opt %s --pass-pipeline='builtin.module(spmd-chunk-all-to-all)' --split-input-file | FileCheck %s --check-prefix=DEFAULT

// Types the pass leaves whole, and sizes it must not overflow on (found
// by a review of the pass against fuzzed inputs). A dimension of size 0
// anywhere: slices of it at offset 0 do not verify.
// CHECK-LABEL: func.func @zero
// CHECK-COUNT-1: spmd.all_to_all
// CHECK-NOT: tensor.extract_slice
// CHECK-LABEL: func.func @zero_exit
// CHECK-COUNT-1: spmd.all_to_all
// CHECK-NOT: tensor.insert_slice
// CHECK-LABEL: func.func @big
// DEFAULT-LABEL: func.func @big
// A tensor of 2^61 f32 (2^63 bytes, which wrapped to a negative count and
// was skipped) is above any threshold: chunked, 2 ways along its 2 rows.
// DEFAULT-COUNT-2: spmd.all_to_all %{{.*}} : tensor<4x1x288230376151711744xf32>
// CHECK-COUNT-2: spmd.all_to_all %{{.*}} : tensor<4x1x288230376151711744xf32>
trellis.mesh @mesh = <["x"=4]>
#id = affine_map<(a, b, c) -> (a, b, c)>
func.func @zero(%d: tensor<4x8x0xf32>) -> tensor<4x8x0xf32>
    attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8x0xf32> -> tensor<4x8x0xf32>
  %e = tensor.empty() : tensor<4x8x0xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<4x8x0xf32>) outs(%e : tensor<4x8x0xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<4x8x0xf32>
  return %g : tensor<4x8x0xf32>
}
#zin = affine_map<(a, b, c, z) -> (a, b, c)>
#zout = affine_map<(a, b, c, z) -> (a, b, z)>
func.func @zero_exit(%d: tensor<4x8192x16xf32>) -> tensor<4x8192x0xf32>
    attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8192x16xf32> -> tensor<4x8192x16xf32>
  %e = tensor.empty() : tensor<4x8192x0xf32>
  %g = linalg.generic {indexing_maps = [#zin, #zout], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%r : tensor<4x8192x16xf32>) outs(%e : tensor<4x8192x0xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.addf %x, %o : f32
    linalg.yield %t : f32
  } -> tensor<4x8192x0xf32>
  return %g : tensor<4x8192x0xf32>
}
func.func @big(%d: tensor<4x2x288230376151711744xf32>) -> tensor<4x2x288230376151711744xf32>
    attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x2x288230376151711744xf32> -> tensor<4x2x288230376151711744xf32>
  %e = tensor.empty() : tensor<4x2x288230376151711744xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<4x2x288230376151711744xf32>) outs(%e : tensor<4x2x288230376151711744xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<4x2x288230376151711744xf32>
  return %g : tensor<4x2x288230376151711744xf32>
}

// -----

// A sharding in the type depends on the shape: a chunk of a dimension
// split over "y" would not divide by it, and a collapsed chunk changes the
// rank.
// CHECK-LABEL: func.func @shenc
// CHECK-COUNT-1: spmd.all_to_all
// CHECK-NOT: tensor.extract_slice
trellis.mesh @mesh = <["x"=4, "y"=8], types = [explicit, explicit]>
#id = affine_map<(a, b) -> (a, b)>
!t = tensor<4x8xf32, #trellis.sharding<@mesh, [{}, {"y"}]>>
func.func @shenc(%d: !t) -> !t attributes {spmd.mesh = @mesh, spmd.manual_axes = ["x"]} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : !t -> !t
  %e = tensor.empty() : !t
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : !t) outs(%e : !t) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> !t
  return %g : !t
}

// -----

// CHECK-LABEL: func.func @shenc2
// CHECK-COUNT-1: spmd.all_to_all
// CHECK-NOT: tensor.extract_slice
trellis.mesh @mesh = <["x"=4]>
#id = affine_map<(a, b) -> (a, b)>
!t3 = tensor<4x8x16xf32, #trellis.sharding<@mesh, [{}, {}, {}]>>
!t2 = tensor<32x16xf32, #trellis.sharding<@mesh, [{}, {}]>>
func.func @shenc2(%d: !t3) -> !t2 attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : !t3 -> !t3
  %c = tensor.collapse_shape %r [[0, 1], [2]] : !t3 into !t2
  %e = tensor.empty() : !t2
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : !t2) outs(%e : !t2) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> !t2
  return %g : !t2
}

// -----

// A seed in a block without a terminator (a graph region): the chunks are
// put at the end of the block.
// CHECK-LABEL: func.func @g
// CHECK-COUNT-2: spmd.all_to_all %{{.*}} : tensor<4x4xf32> -> tensor<4x4xf32>
// CHECK-COUNT-2: math.exp %{{.*}} : tensor<4x4xf32>
trellis.mesh @mesh = <["x"=4]>
#id = affine_map<(a, b) -> (a, b)>
func.func @g() attributes {spmd.mesh = @mesh} {
  builtin.module {
    %d = tensor.empty() : tensor<4x8xf32>
    %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8xf32> -> tensor<4x8xf32>
    %e = tensor.empty() : tensor<4x8xf32>
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%r : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %t = math.tanh %x : f32
      linalg.yield %t : f32
    } -> tensor<4x8xf32>
    %h = math.exp %g : tensor<4x8xf32>
  }
  return
}
