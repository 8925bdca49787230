// RUN: trellis-opt %s --trellis-widen-accumulation --split-input-file | FileCheck %s

// A bf16 matmul accumulates in f32 and rounds once.
// CHECK-LABEL: func.func @matmul_bf16
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xbf16>, %[[B:.*]]: tensor<8x2xbf16>, %[[C:.*]]: tensor<4x2xbf16>)
// CHECK: %[[W:.*]] = arith.extf %[[C]] : tensor<4x2xbf16> to tensor<4x2xf32>
// CHECK: %[[G:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<4x8xbf16>, tensor<8x2xbf16>) outs(%[[W]] : tensor<4x2xf32>)
// CHECK: ^bb0(%[[X:.*]]: bf16, %[[Y:.*]]: bf16, %[[ACC:.*]]: f32):
// CHECK-DAG: %[[XW:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK-DAG: %[[YW:.*]] = arith.extf %[[Y]] : bf16 to f32
// CHECK: %[[P:.*]] = arith.mulf %[[XW]], %[[YW]] : f32
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK: linalg.yield %[[S]] : f32
// CHECK: %[[R:.*]] = arith.truncf %[[G]] : tensor<4x2xf32> to tensor<4x2xbf16>
// CHECK: return %[[R]]
func.func @matmul_bf16(%a: tensor<4x8xbf16>, %b: tensor<8x2xbf16>, %c: tensor<4x2xbf16>) -> tensor<4x2xbf16> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xbf16>, tensor<8x2xbf16>) outs(%c : tensor<4x2xbf16>) -> tensor<4x2xbf16>
  return %r : tensor<4x2xbf16>
}

// -----

// An f16 sum (linalg.reduce) too; the reduction's dimension stays.
// CHECK-LABEL: func.func @reduce_f16
// CHECK: arith.extf %{{.*}} : tensor<4xf16> to tensor<4xf32>
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : tensor<4xf32> to tensor<4xf16>
func.func @reduce_f16(%x: tensor<4x16xf16>, %init: tensor<4xf16>) -> tensor<4xf16> {
  %r = linalg.reduce ins(%x : tensor<4x16xf16>) outs(%init : tensor<4xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  return %r : tensor<4xf16>
}

// -----

// Left alone: f32 accumulators, a max (it rounds nothing), a body with an
// op the pass does not know, and an elementwise op (no reduction).
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: arith.extf
// CHECK-NOT: arith.truncf
// CHECK: linalg.matmul
// CHECK: linalg.reduce
// CHECK: linalg.generic
// CHECK: linalg.generic
#id = affine_map<(d0) -> (d0)>
#sum = affine_map<(d0) -> ()>
func.func @unchanged(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x2xf32>,
                     %x: tensor<16xbf16>, %init: tensor<bf16>, %y: tensor<16xbf16>) -> (tensor<4x2xf32>, tensor<bf16>, tensor<bf16>, tensor<16xbf16>) {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  %m = linalg.reduce ins(%x : tensor<16xbf16>) outs(%init : tensor<bf16>) dimensions = [0]
    (%in: bf16, %acc: bf16) {
      %s = arith.maximumf %in, %acc : bf16
      linalg.yield %s : bf16
    }
  %e = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction"]}
      ins(%x : tensor<16xbf16>) outs(%init : tensor<bf16>) {
  ^bb0(%in: bf16, %acc: bf16):
    %t = math.exp %in : bf16
    %s = arith.addf %t, %acc : bf16
    linalg.yield %s : bf16
  } -> tensor<bf16>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xbf16>) outs(%y : tensor<16xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %s = arith.addf %in, %in : bf16
    linalg.yield %s : bf16
  } -> tensor<16xbf16>
  return %r, %m, %e, %n : tensor<4x2xf32>, tensor<bf16>, tensor<bf16>, tensor<16xbf16>
}

// -----

// A body that reads a value from outside (the scale) is left alone: that
// value would need its own extension.
// CHECK-LABEL: func.func @captured
// CHECK-NOT: arith.extf
// CHECK: arith.mulf %{{.*}}, %{{.*}} : bf16
#id = affine_map<(d0) -> (d0)>
#sum = affine_map<(d0) -> ()>
func.func @captured(%x: tensor<16xbf16>, %init: tensor<bf16>, %s: bf16) -> tensor<bf16> {
  %e = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction"]}
      ins(%x : tensor<16xbf16>) outs(%init : tensor<bf16>) {
  ^bb0(%in: bf16, %acc: bf16):
    %t = arith.mulf %in, %s : bf16
    %a = arith.addf %t, %acc : bf16
    linalg.yield %a : bf16
  } -> tensor<bf16>
  return %e : tensor<bf16>
}
