// scf.index_switch on the device's position, with tensor results: typed by
// the variance analysis as varying over "i" (its index does), so the
// out_specs that replicate its psum type-check and the per-device blocks
// come back in device order. Device k holds [2k, 2k+1] of iota(8):
// device 0 keeps its block, device 1 doubles it, the others yield -1.
// RUN: trellis-run %s --iota | FileCheck %s
// CHECK: out0: float32[8]
// CHECK-NEXT: [ 0.  1.  4.  6. -1. -1. -1. -1.]
// CHECK: out1: float32[2]
// CHECK-NEXT: [2. 5.]

trellis.mesh @mesh = <["i"=4]>

func.func @main(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<2xf32>) {
  %r:2 = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}], [{}]]
      (%x) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<2xf32>) {
  ^bb0(%b: tensor<2xf32>):
    %i = spmd.axis_index over ["i"] : index
    %s = scf.index_switch %i -> tensor<2xf32>
    case 0 {
      scf.yield %b : tensor<2xf32>
    }
    case 1 {
      %e = tensor.empty() : tensor<2xf32>
      %d = linalg.add ins(%b, %b : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
      scf.yield %d : tensor<2xf32>
    }
    default {
      %c = arith.constant dense<-1.0> : tensor<2xf32>
      scf.yield %c : tensor<2xf32>
    }
    %t = spmd.psum %s over ["i"] : tensor<2xf32>
    spmd.yield %s, %t : tensor<2xf32>, tensor<2xf32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<2xf32>
}
