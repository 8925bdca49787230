// Static slices whose last index, offset + (size - 1) * stride, wraps
// around int64 verify (the tensor dialect adds them in wrapping
// arithmetic) and used to read other memory when run, exit code 0 (found
// by fuzzing). trellis-run now refuses them, with the slice's location;
// a slice that stays inside its tensor, the largest stride included,
// still runs.
// RUN: not trellis-run %s --entry read --random 1 --quiet 2>&1 | FileCheck %s --check-prefix=READ
// READ: slice-out-of-bounds.mlir:[[@LINE+9]]:8: error: dimension 0 of the slice (offset 40, size 4, stride 9223372036854775807) reaches outside the tensor it slices
// READ: trellis-run: error: @read slices outside a tensor (see the error above)
// RUN: not trellis-run %s --entry write --random 1 --quiet 2>&1 | FileCheck %s --check-prefix=WRITE
// WRITE: error: dimension 1 of the slice (offset 3, size 5, stride 4611686018427387904) reaches outside the tensor it slices
// RUN: not trellis-run %s --entry sharded --random 1 --reference --quiet 2>&1 | FileCheck %s --check-prefix=SHARDED
// SHARDED: error: dimension 0 of the slice
// RUN: trellis-run %s --entry one --random 1 --reference 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: reference: out0 (float32[1], 1 devices vs 1): match
func.func @read(%x: tensor<64xf32>) -> tensor<4xf32> {
  %r = tensor.extract_slice %x[40] [4] [9223372036854775807] : tensor<64xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @write(%x: tensor<4x8xf32>, %y: tensor<4x5xf32>) -> tensor<4x8xf32> {
  %r = tensor.insert_slice %y into %x[0, 3] [4, 5] [1, 4611686018427387904] : tensor<4x5xf32> into tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

trellis.mesh @m = <["a"=4]>
func.func @sharded(%x: tensor<64xf32> {trellis.sharding = #trellis.sharding<@m, [{"a"}]>}) -> tensor<4xf32> {
  %r = tensor.extract_slice %x[40] [4] [9223372036854775807] : tensor<64xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}

// One element: any stride stays inside.
func.func @one(%x: tensor<64xf32>) -> tensor<1xf32> {
  %r = tensor.extract_slice %x[63] [1] [9223372036854775807] : tensor<64xf32> to tensor<1xf32>
  return %r : tensor<1xf32>
}
