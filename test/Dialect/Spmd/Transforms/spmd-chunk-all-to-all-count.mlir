// RUN: trellis-opt %s --pass-pipeline='builtin.module(spmd-chunk-all-to-all{threshold-bytes=0})' | FileCheck %s
// RUN: trellis-opt %s --pass-pipeline='builtin.module(spmd-chunk-all-to-all{chunks=3 threshold-bytes=0})' | FileCheck %s --check-prefix=THREE

// With chunks=0 (the default) the chunk count follows the bytes each
// all_to_all moves per device: one chunk per 64 KiB, at least 2, at most
// 8, lowered to a count that divides the chunked dimension. An explicit
// count applies to every all_to_all alike.

trellis.mesh @mesh = <["x"=4]>

#e3 = affine_map<(a, b, c) -> (a, b, c)>

// 8 KiB: the fewest, 2 chunks.
// CHECK-LABEL: func.func @small
// CHECK-COUNT-2: spmd.all_to_all %{{.*}} : tensor<4x4x64xf32> -> tensor<4x4x64xf32>
// CHECK-NOT: spmd.all_to_all
// THREE-LABEL: func.func @small
// THREE-COUNT-2: spmd.all_to_all %{{.*}} : tensor<4x4x64xf32> -> tensor<4x4x64xf32>
func.func @small(%d: tensor<4x8x64xf32>) -> tensor<4x8x64xf32> attributes {spmd.mesh = @mesh} {
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

// 256 KiB: 4 chunks of 64 KiB.
// CHECK-LABEL: func.func @medium
// CHECK-COUNT-4: spmd.all_to_all %{{.*}} : tensor<4x16x256xf32> -> tensor<4x16x256xf32>
// CHECK-NOT: spmd.all_to_all
// THREE-LABEL: func.func @medium
// THREE-COUNT-2: spmd.all_to_all %{{.*}} : tensor<4x32x256xf32> -> tensor<4x32x256xf32>
func.func @medium(%d: tensor<4x64x256xf32>) -> tensor<4x64x256xf32> attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x64x256xf32> -> tensor<4x64x256xf32>
  %e = tensor.empty() : tensor<4x64x256xf32>
  %g = linalg.generic {indexing_maps = [#e3, #e3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<4x64x256xf32>) outs(%e : tensor<4x64x256xf32>) {
  ^bb0(%x: f32, %unused: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x64x256xf32>
  return %g : tensor<4x64x256xf32>
}

// 1 MiB: 16 chunks of 64 KiB would do, at most 8 are made.
// CHECK-LABEL: func.func @large
// CHECK-COUNT-8: spmd.all_to_all %{{.*}} : tensor<4x8x1024xf32> -> tensor<4x8x1024xf32>
// CHECK-NOT: spmd.all_to_all
func.func @large(%d: tensor<4x64x1024xf32>) -> tensor<4x64x1024xf32> attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x64x1024xf32> -> tensor<4x64x1024xf32>
  %e = tensor.empty() : tensor<4x64x1024xf32>
  %g = linalg.generic {indexing_maps = [#e3, #e3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<4x64x1024xf32>) outs(%e : tensor<4x64x1024xf32>) {
  ^bb0(%x: f32, %unused: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x64x1024xf32>
  return %g : tensor<4x64x1024xf32>
}

// 1.5 MiB along 12 capacity slots: 8 chunks do not divide them, 6 do.
// CHECK-LABEL: func.func @twelve
// CHECK-COUNT-6: spmd.all_to_all %{{.*}} : tensor<4x2x8192xf32> -> tensor<4x2x8192xf32>
// CHECK-NOT: spmd.all_to_all
// THREE-LABEL: func.func @twelve
// THREE-COUNT-3: spmd.all_to_all %{{.*}} : tensor<4x4x8192xf32> -> tensor<4x4x8192xf32>
func.func @twelve(%d: tensor<4x12x8192xf32>) -> tensor<4x12x8192xf32> attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x12x8192xf32> -> tensor<4x12x8192xf32>
  %e = tensor.empty() : tensor<4x12x8192xf32>
  %g = linalg.generic {indexing_maps = [#e3, #e3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<4x12x8192xf32>) outs(%e : tensor<4x12x8192xf32>) {
  ^bb0(%x: f32, %unused: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x12x8192xf32>
  return %g : tensor<4x12x8192xf32>
}
