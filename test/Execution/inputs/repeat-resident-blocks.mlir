// Repeated runs reuse the input blocks placed on the devices by the first
// run. Column blocks of a row-major array are not contiguous, so each device
// gets a copy; the 2nd to 4th runs must still see the right values. x is
// iota(2x4) = [[0 1 2 3] [4 5 6 7]], split by columns over 2 devices; each
// device sums its block's rows and psum adds the blocks:
// [0+4+2+6, 1+5+3+7] = [12, 16]. The output is the last run's.
// RUN: trellis-run %s --iota --warmup 1 --repeat 3 --print 2>&1 | FileCheck %s
// CHECK: 3 runs on 2 devices
// CHECK: out0: float32[2]
// CHECK-NEXT: [12. 16.]

trellis.mesh @mesh = <["i"=2]>

func.func @main(%x: tensor<2x4xf32>) -> tensor<2xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{}, {"i"}]] out_specs = [[{}]] check_vma = false
      (%x) : (tensor<2x4xf32>) -> tensor<2xf32> {
  ^bb0(%b: tensor<2x2xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
    %s = linalg.reduce ins(%b : tensor<2x2xf32>) outs(%z : tensor<2xf32>) dimensions = [0]
      (%v: f32, %acc: f32) {
        %a = arith.addf %v, %acc : f32
        linalg.yield %a : f32
      }
    %t = spmd.psum %s over ["i"] : tensor<2xf32>
    spmd.yield %t : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
