// Scalar results come back as 0-d arrays, from a global program and from
// its trellis-opt partitioned form (scalars cross the shard_map as
// replicated 0-d tensors). x = [0 1 2 3], s = 2: y = x + s = [2 3 4 5],
// sum(y) * s = 28.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/s.npy', np.array(2.0, dtype=np.float32))"
// RUN: trellis-run %s --input 0=%t/s.npy --iota --reference | FileCheck %s
// RUN: trellis-opt %s --trellis-global-to-manual -o %t/partitioned.mlir
// RUN: trellis-run %t/partitioned.mlir --input 0=%t/s.npy --iota | FileCheck %s

// CHECK: out0: float32[4]
// CHECK-NEXT: [2. 3. 4. 5.]
// CHECK: out1: float32[]
// CHECK-NEXT: 28.
// CHECK-NOT: mismatch

trellis.mesh @m = <["a"=2]>
func.func @main(%s: f32, %x: tensor<4xf32> {trellis.sharding = #trellis.sharding<@m, [{"a"}]>}) -> (tensor<4xf32>, f32) {
  %t = tensor.splat %s : tensor<4xf32>
  %y = arith.addf %x, %t : tensor<4xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%y : tensor<4xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %c = arith.addf %a, %b : f32
      linalg.yield %c : f32
    }
  %v = tensor.extract %r[] : tensor<f32>
  %w = arith.mulf %v, %s : f32
  return %y, %w : tensor<4xf32>, f32
}
