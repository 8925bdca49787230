// An entry whose name holds pipeline syntax (`}`, `,`, spaces): the
// outlining pipeline was built as text, `spmd-outline-device-func{entry=my}f
// ...}`, and failed with "internal error: cannot build the outlining
// pipeline". Pipelines are now built from pass objects.
// RUN: trellis-run %s --entry 'my}f, x' --iota | FileCheck %s
// RUN: trellis-opt %s --trellis-pipeline | FileCheck %s --check-prefix=LLVM

// CHECK: out0: float32[4]
// CHECK-NEXT: [0. 2. 4. 6.]
// LLVM: llvm.func @"my}f, x_device"

trellis.mesh @m = <["i"=2]>
func.func @"my}f, x"(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = spmd.shard_map @m in_specs = [[{"i"}]] out_specs = [[{"i"}]] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<2xf32>):
    %d = arith.addf %b, %b : tensor<2xf32>
    spmd.yield %d : tensor<2xf32>
  }
  return %r : tensor<4xf32>
}
