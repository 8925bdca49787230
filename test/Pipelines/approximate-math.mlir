// trellis-lower-to-llvm approximates f32 tanh (trellis-approximate-math) by
// default, so the loop holds no call; approximate-math=false keeps libm's.
// RUN: trellis-opt %s --spmd-outline-device-func=erase-host --trellis-lower-to-llvm | FileCheck %s
// RUN: trellis-opt %s --spmd-outline-device-func=erase-host --trellis-lower-to-llvm=approximate-math=false | FileCheck %s --check-prefix=LIBM

// CHECK-LABEL: llvm.func @gelu_device(
// CHECK-NOT: tanh
// CHECK: llvm.return

// LIBM-LABEL: llvm.func @gelu_device(
// LIBM: tanh

trellis.mesh @mesh = <["i"=2]>

func.func @gelu(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c = spmd.shard_map @mesh in_specs = [[{"i"}, {}]] out_specs = [[{"i"}, {}]]
      (%a) : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%ab: tensor<4x16xf32>):
    %t = math.tanh %ab : tensor<4x16xf32>
    spmd.yield %t : tensor<4x16xf32>
  }
  return %c : tensor<8x16xf32>
}
