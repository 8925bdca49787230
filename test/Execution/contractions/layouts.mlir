// Contractions of every layout run through the matmul kernels and match
// numpy's einsum: unit dimensions, several batch, M or K dimensions (merged
// when they lie nested alike in every operand, looped around the call when
// not), a batch dimension in the middle, a missing M or N, a transposed
// result. Each has at least 64^3 multiply-adds, so one left to loops would
// print trellis-linalg-to-kernels' remark, which QUIET forbids.
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-run %s --entry unit_dims --random 1 --save-inputs --output-dir %t/unit_dims --quiet 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %python %S/check_einsum.py %t/unit_dims 'mxyk,kn->mxyn'
// RUN: trellis-run %s --entry two_batch --random 1 --save-inputs --output-dir %t/two_batch --quiet 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %python %S/check_einsum.py %t/two_batch 'abmk,abkn->abmn'
// RUN: trellis-run %s --entry batch_middle --random 1 --save-inputs --output-dir %t/batch_middle --quiet 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %python %S/check_einsum.py %t/batch_middle 'mbk,bkn->bmn'
// RUN: trellis-run %s --entry two_m --random 1 --save-inputs --output-dir %t/two_m --quiet 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %python %S/check_einsum.py %t/two_m 'bsd,df->bsf'
// RUN: trellis-run %s --entry two_m_apart --random 1 --save-inputs --output-dir %t/two_m_apart --quiet 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %python %S/check_einsum.py %t/two_m_apart 'sbd,df->bsf'
// RUN: trellis-run %s --entry two_k --random 1 --save-inputs --output-dir %t/two_k --quiet 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %python %S/check_einsum.py %t/two_k 'mhd,hdn->mn'
// RUN: trellis-run %s --entry two_k_apart --random 1 --save-inputs --output-dir %t/two_k_apart --quiet 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %python %S/check_einsum.py %t/two_k_apart 'mdh,hdn->mn'
// RUN: trellis-run %s --entry two_of_each --random 1 --save-inputs --output-dir %t/two_of_each --quiet 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %python %S/check_einsum.py %t/two_of_each 'bcmhk,chkjn->bcmjn'
// RUN: trellis-run %s --entry no_n --random 1 --save-inputs --output-dir %t/no_n --quiet 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %python %S/check_einsum.py %t/no_n 'mk,k->m'
// RUN: trellis-run %s --entry no_m_no_batch --random 1 --save-inputs --output-dir %t/no_m_no_batch --quiet 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %python %S/check_einsum.py %t/no_m_no_batch 'k,kn->n'
// RUN: trellis-run %s --entry transposed_result --random 1 --save-inputs --output-dir %t/transposed_result --quiet 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %python %S/check_einsum.py %t/transposed_result 'mk,kn->nm'
// QUIET-NOT: remark

// mxyk,kn->mxyn
func.func @unit_dims(%a: tensor<64x1x1x72xf32>, %b: tensor<72x64xf32>) -> tensor<64x1x1x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1x1x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1x1x64xf32>) -> tensor<64x1x1x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x1x1x72xf32>, tensor<72x64xf32>) outs(%f : tensor<64x1x1x64xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<64x1x1x64xf32>
  return %r : tensor<64x1x1x64xf32>
}

// abmk,abkn->abmn
func.func @two_batch(%a: tensor<2x3x40x48xf32>, %b: tensor<2x3x48x40xf32>) -> tensor<2x3x40x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x40x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x40x40xf32>) -> tensor<2x3x40x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2x3x40x48xf32>, tensor<2x3x48x40xf32>) outs(%f : tensor<2x3x40x40xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<2x3x40x40xf32>
  return %r : tensor<2x3x40x40xf32>
}

// mbk,bkn->bmn
func.func @batch_middle(%a: tensor<48x3x48xf32>, %b: tensor<3x48x40xf32>) -> tensor<3x48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x48x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x48x40xf32>) -> tensor<3x48x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<48x3x48xf32>, tensor<3x48x40xf32>) outs(%f : tensor<3x48x40xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<3x48x40xf32>
  return %r : tensor<3x48x40xf32>
}

// bsd,df->bsf
func.func @two_m(%a: tensor<3x40x48xf32>, %b: tensor<48x64xf32>) -> tensor<3x40x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x40x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x40x64xf32>) -> tensor<3x40x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<3x40x48xf32>, tensor<48x64xf32>) outs(%f : tensor<3x40x64xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<3x40x64xf32>
  return %r : tensor<3x40x64xf32>
}

// sbd,df->bsf
func.func @two_m_apart(%a: tensor<40x3x48xf32>, %b: tensor<48x64xf32>) -> tensor<3x40x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x40x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x40x64xf32>) -> tensor<3x40x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<40x3x48xf32>, tensor<48x64xf32>) outs(%f : tensor<3x40x64xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<3x40x64xf32>
  return %r : tensor<3x40x64xf32>
}

// mhd,hdn->mn
func.func @two_k(%a: tensor<64x4x16xf32>, %b: tensor<4x16x72xf32>) -> tensor<64x72xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x72xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x72xf32>) -> tensor<64x72xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : tensor<64x4x16xf32>, tensor<4x16x72xf32>) outs(%f : tensor<64x72xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<64x72xf32>
  return %r : tensor<64x72xf32>
}

// mdh,hdn->mn
func.func @two_k_apart(%a: tensor<64x16x4xf32>, %b: tensor<4x16x72xf32>) -> tensor<64x72xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x72xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x72xf32>) -> tensor<64x72xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : tensor<64x16x4xf32>, tensor<4x16x72xf32>) outs(%f : tensor<64x72xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<64x72xf32>
  return %r : tensor<64x72xf32>
}

// bcmhk,chkjn->bcmjn
func.func @two_of_each(%a: tensor<2x3x16x2x24xf32>, %b: tensor<3x2x24x3x24xf32>) -> tensor<2x3x16x3x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x16x3x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x16x3x24xf32>) -> tensor<2x3x16x3x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d5, d6, d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : tensor<2x3x16x2x24xf32>, tensor<3x2x24x3x24xf32>) outs(%f : tensor<2x3x16x3x24xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<2x3x16x3x24xf32>
  return %r : tensor<2x3x16x3x24xf32>
}

// mk,k->m
func.func @no_n(%a: tensor<1024x512xf32>, %b: tensor<512xf32>) -> tensor<1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a, %b : tensor<1024x512xf32>, tensor<512xf32>) outs(%f : tensor<1024xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// k,kn->n
func.func @no_m_no_batch(%a: tensor<512xf32>, %b: tensor<512x1024xf32>) -> tensor<1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a, %b : tensor<512xf32>, tensor<512x1024xf32>) outs(%f : tensor<1024xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// mk,kn->nm
func.func @transposed_result(%a: tensor<64x72xf32>, %b: tensor<72x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x72xf32>, tensor<72x64xf32>) outs(%f : tensor<64x64xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
