// trellis-overlap: the overlap rewrites where their patterns are, then
// every collective split into start/wait. A layer loop's gather is
// pipelined (started one layer ahead, the last layer peeled), and the psum
// after the loop becomes psum_start + collective_wait.
// RUN: trellis-opt %s --trellis-overlap | FileCheck %s --implicit-check-not='spmd.all_gather ' --implicit-check-not='spmd.psum '
// The same through the lowering's option: three runtime starts (the two
// gathers and the psum); without it, blocking calls.
// RUN: trellis-opt %s --trellis-lower-to-llvm=overlap=true | FileCheck %s --check-prefix=LLVM
// RUN: trellis-opt %s --trellis-lower-to-llvm | FileCheck %s --check-prefix=PLAIN

trellis.mesh @mesh = <["d"=4]>

// CHECK-LABEL: func.func @layers
// CHECK: %[[F0:.*]] = spmd.all_gather_start
// CHECK: %[[R:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[F:.*]] = %[[F0]])
// CHECK: spmd.all_gather_start
// CHECK: spmd.collective_wait %[[F]]
// CHECK: scf.yield
// CHECK: spmd.collective_wait %[[R]]#1
// CHECK: %[[P:.*]] = spmd.psum_start
// CHECK: spmd.collective_wait %[[P]]

// LLVM-LABEL: llvm.func @layers
// LLVM-COUNT-3: llvm.call @trellis_rt_collective_start
// LLVM-NOT: llvm.call @trellis_rt_collective_start

// PLAIN-LABEL: llvm.func @layers
// PLAIN: llvm.call @trellis_rt_all_gather
// PLAIN: llvm.call @trellis_rt_all_reduce
// PLAIN-NOT: llvm.call @trellis_rt_collective_start
func.func @layers(%x: tensor<2x8xf32>, %wb: tensor<4x2x8xf32>) -> tensor<2x8xf32>
    attributes {spmd.mesh = @mesh} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %h = scf.for %l = %c0 to %c4 step %c1 iter_args(%a = %x) -> (tensor<2x8xf32>) {
    %ws = tensor.extract_slice %wb[%l, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<4x2x8xf32> to tensor<2x8xf32>
    %w = spmd.all_gather %ws over ["d"] dim 0 tiled : tensor<2x8xf32> -> tensor<8x8xf32>
    %e = tensor.empty() : tensor<2x8xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
    %m = linalg.matmul ins(%a, %w : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
    scf.yield %m : tensor<2x8xf32>
  }
  %s = spmd.psum %h over ["d"] : tensor<2x8xf32>
  return %s : tensor<2x8xf32>
}
