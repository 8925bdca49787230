// RUN: trellis-opt %s --pass-pipeline='builtin.module(spmd-chunk-all-to-all{threshold-bytes=0})' | FileCheck %s
// RUN: trellis-opt %s --pass-pipeline='builtin.module(spmd-chunk-all-to-all{chunks=3 threshold-bytes=0})' | FileCheck %s --check-prefix=THREE
// RUN: trellis-opt %s --pass-pipeline='builtin.module(spmd-chunk-all-to-all)' | FileCheck %s --check-prefix=THRESH

// With chunks=0 (the default) the chunk count follows the block each
// all_to_all sends to each of the 4 devices of its group (the operand's
// bytes / 4): one chunk per 64 KiB of block, at least 2, at most 8,
// lowered to a count that divides the chunked dimension. Counting the
// whole operand instead would give 8 chunks to @medium. An explicit count
// applies to every all_to_all alike.

trellis.mesh @mesh = <["x"=4]>

#e3 = affine_map<(a, b, c) -> (a, b, c)>

// 8 KiB (2 KiB blocks): the fewest, 2 chunks; below the default threshold
// (64 KiB blocks) nothing is chunked.
// THRESH-LABEL: func.func @small
// THRESH-COUNT-1: spmd.all_to_all
// THRESH-NOT: spmd.all_to_all
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

// 1 MiB (256 KiB blocks): 4 chunks of 64 KiB blocks.
// THRESH-LABEL: func.func @medium
// CHECK-LABEL: func.func @medium
// CHECK-COUNT-4: spmd.all_to_all %{{.*}} : tensor<4x16x1024xf32> -> tensor<4x16x1024xf32>
// CHECK-NOT: spmd.all_to_all
// THREE-LABEL: func.func @medium
// THREE-COUNT-2: spmd.all_to_all %{{.*}} : tensor<4x32x1024xf32> -> tensor<4x32x1024xf32>
func.func @medium(%d: tensor<4x64x1024xf32>) -> tensor<4x64x1024xf32> attributes {spmd.mesh = @mesh} {
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

// 4 MiB (1 MiB blocks): 16 chunks of 64 KiB would do, at most 8 are made.
// THRESH-LABEL: func.func @large
// CHECK-LABEL: func.func @large
// CHECK-COUNT-8: spmd.all_to_all %{{.*}} : tensor<4x8x4096xf32> -> tensor<4x8x4096xf32>
// CHECK-NOT: spmd.all_to_all
func.func @large(%d: tensor<4x64x4096xf32>) -> tensor<4x64x4096xf32> attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x64x4096xf32> -> tensor<4x64x4096xf32>
  %e = tensor.empty() : tensor<4x64x4096xf32>
  %g = linalg.generic {indexing_maps = [#e3, #e3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<4x64x4096xf32>) outs(%e : tensor<4x64x4096xf32>) {
  ^bb0(%x: f32, %unused: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x64x4096xf32>
  return %g : tensor<4x64x4096xf32>
}

// 6 MiB (1.5 MiB blocks) along 12 capacity slots: 8 chunks do not divide
// them, 6 do.
// THRESH-LABEL: func.func @twelve
// CHECK-LABEL: func.func @twelve
// CHECK-COUNT-6: spmd.all_to_all %{{.*}} : tensor<4x2x32768xf32> -> tensor<4x2x32768xf32>
// CHECK-NOT: spmd.all_to_all
// THREE-LABEL: func.func @twelve
// THREE-COUNT-3: spmd.all_to_all %{{.*}} : tensor<4x4x32768xf32> -> tensor<4x4x32768xf32>
func.func @twelve(%d: tensor<4x12x32768xf32>) -> tensor<4x12x32768xf32> attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x12x32768xf32> -> tensor<4x12x32768xf32>
  %e = tensor.empty() : tensor<4x12x32768xf32>
  %g = linalg.generic {indexing_maps = [#e3, #e3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<4x12x32768xf32>) outs(%e : tensor<4x12x32768xf32>) {
  ^bb0(%x: f32, %unused: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x12x32768xf32>
  return %g : tensor<4x12x32768xf32>
}

// The default threshold's edge: 256 KiB sends 64 KiB blocks and is chunked
// in 2; 255 KiB (63.75 KiB blocks) is left whole.
// CHECK-LABEL: func.func @edge
// THRESH-LABEL: func.func @edge
// THRESH-COUNT-2: spmd.all_to_all %{{.*}} : tensor<4x8x1024xf32> -> tensor<4x8x1024xf32>
// THRESH-NOT: spmd.all_to_all
func.func @edge(%d: tensor<4x16x1024xf32>) -> tensor<4x16x1024xf32> attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x16x1024xf32> -> tensor<4x16x1024xf32>
  %e = tensor.empty() : tensor<4x16x1024xf32>
  %g = linalg.generic {indexing_maps = [#e3, #e3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<4x16x1024xf32>) outs(%e : tensor<4x16x1024xf32>) {
  ^bb0(%x: f32, %unused: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x1024xf32>
  return %g : tensor<4x16x1024xf32>
}

// CHECK-LABEL: func.func @below
// THRESH-LABEL: func.func @below
// THRESH-COUNT-1: spmd.all_to_all
// THRESH-NOT: spmd.all_to_all
func.func @below(%d: tensor<4x16x1020xf32>) -> tensor<4x16x1020xf32> attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x16x1020xf32> -> tensor<4x16x1020xf32>
  %e = tensor.empty() : tensor<4x16x1020xf32>
  %g = linalg.generic {indexing_maps = [#e3, #e3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<4x16x1020xf32>) outs(%e : tensor<4x16x1020xf32>) {
  ^bb0(%x: f32, %unused: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x1020xf32>
  return %g : tensor<4x16x1020xf32>
}
