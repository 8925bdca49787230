// trellis-run partitions only the entry and what it calls (a function the
// partitioner rejects no longer fails an unrelated --entry), takes scalar
// arguments as 0-d tensors, and partitions a function whose only sharding
// is on a result (it failed in the lowering).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/s.npy', np.array(7, np.int32)); np.save('%t/f.npy', np.array(0.5, np.float32))"
// RUN: trellis-run %s --entry good --iota --reference 2>&1 | FileCheck %s --check-prefix=GOOD
// RUN: trellis-run %s --entry scalar_arg --input s=%t/s.npy --reference 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: trellis-run %s --entry scalar_arg --iota 2>&1 | FileCheck %s --check-prefix=IOTA
// RUN: trellis-run %s --entry float_and_index --input 0=%t/f.npy --iota --reference 2>&1 | FileCheck %s --check-prefix=FLOAT
// RUN: trellis-run %s --entry result_only --iota --reference 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not trellis-run %s --entry scalar_arg --input s=%t/f.npy 2>&1 | FileCheck %s --check-prefix=WRONG

// GOOD: out0: int32[4]
// GOOD-NEXT: [0 2 4 6]
// GOOD: reference: out0 (int32[4], 2 devices vs 1): match

// SCALAR: out0: int32[4]
// SCALAR-NEXT: [ 7  8  9 10]
// SCALAR: reference: out0 (int32[4], 2 devices vs 1): match

// IOTA: [0 1 2 3]

// FLOAT: out0: float32[4]
// FLOAT-NEXT: [0.5 1.5 2.5 3.5]
// FLOAT: reference: out0 (float32[4], 2 devices vs 1): match

// RESULT: out0: float32[4]
// RESULT-NEXT: [0. 1. 2. 3.]
// RESULT: reference: out0 (float32[4], 2 devices vs 1): match

// WRONG: trellis-run: error: --input s={{.*}}f.npy: the file holds float32[] but argument s is int32[]

trellis.mesh @m = <["a"=2]>
func.func @scalar_arg(%s: i32 {trellis.name = "s"}, %x: tensor<4xi32> {trellis.sharding = #trellis.sharding<@m, [{"a"}]>}) -> tensor<4xi32> {
  %t = tensor.splat %s : tensor<4xi32>
  %y = arith.addi %x, %t : tensor<4xi32>
  return %y : tensor<4xi32>
}

func.func @good(%x: tensor<4xi32> {trellis.sharding = #trellis.sharding<@m, [{"a"}]>}) -> tensor<4xi32> {
  %y = arith.addi %x, %x : tensor<4xi32>
  return %y : tensor<4xi32>
}

// The partitioner (trellis-opt) does not take scalar arguments; an
// unrelated --entry must not trip over this function.
func.func @unrelated(%s: f32, %x: tensor<4xf32> {trellis.sharding = #trellis.sharding<@m, [{"a"}]>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @float_and_index(%f: f32, %i: index, %x: tensor<4xf32> {trellis.sharding = #trellis.sharding<@m, [{"a"}]>}) -> tensor<4xf32> {
  %t = tensor.splat %f : tensor<4xf32>
  %y = arith.addf %x, %t : tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @result_only(%x: tensor<4xf32>) -> (tensor<4xf32> {trellis.sharding = #trellis.sharding<@m, [{}]>}) {
  return %x : tensor<4xf32>
}
