// A contraction of at least 64^3 multiply-adds that the kernels cannot run
// is reported where it is, with the reason; smaller ones are not.
// RUN: trellis-opt %s --trellis-linalg-to-kernels -verify-diagnostics -split-input-file

func.func @f16_into_f16(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf16>) {
  // expected-remark @+1 {{a contraction of 262144 multiply-adds runs as loops, not a matmul kernel: the kernels do not take its element type}}
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf16>)
  return
}

// -----

func.func @small(%a: memref<8x8xf16>, %b: memref<8x8xf16>, %c: memref<8x8xf16>) {
  linalg.matmul ins(%a, %b : memref<8x8xf16>, memref<8x8xf16>) outs(%c : memref<8x8xf16>)
  return
}

// -----

func.func @extra_output_dim(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64x2xf32>) {
  // expected-remark @+1 {{a contraction of 524288 multiply-adds runs as loops, not a matmul kernel: a loop dimension is none of batch, M, N and K}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k, e) -> (m, k)>,
                                   affine_map<(m, n, k, e) -> (k, n)>,
                                   affine_map<(m, n, k, e) -> (m, n, e)>],
                  iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64x2xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
