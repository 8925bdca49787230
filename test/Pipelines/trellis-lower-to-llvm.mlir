// The whole lowering of a device function: nothing but the LLVM dialect and
// calls into the runtime remain. The matmul overwrites its zero-filled
// accumulator.
// RUN: trellis-opt %s --spmd-outline-device-func=erase-host --trellis-lower-to-llvm | FileCheck %s
// RUN: trellis-opt %s --spmd-outline-device-func=erase-host --trellis-lower-to-llvm=kernels=false | FileCheck %s --check-prefix=LOOPS

// Heap buffers go through the runtime's allocation functions (a device
// stopped on an error has its buffers freed), never malloc/free directly.
// CHECK-NOT: trellis.mesh
// CHECK-NOT: llvm.func @malloc
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// CHECK-DAG: llvm.func @trellis_rt_matmul_overwrite(
// CHECK-DAG: llvm.func @trellis_rt_all_reduce(
// CHECK: llvm.func @matmul_basic_device(
// CHECK: llvm.call @_mlir_memref_to_llvm_alloc(
// CHECK: llvm.call @trellis_rt_matmul_overwrite(
// CHECK: llvm.call @trellis_rt_all_reduce(
// CHECK: llvm.func @_mlir_ciface_matmul_basic_device(
// CHECK-NOT: linalg.
// CHECK-NOT: spmd.

// LOOPS-NOT: trellis_rt_matmul
// LOOPS: llvm.call @trellis_rt_all_reduce(

trellis.mesh @mesh = <["i"=4, "j"=2]>

func.func @matmul_basic(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %c = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}], [{"j"}, {}]] out_specs = [[{"i"}, {}]]
      (%a, %b) : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32> {
  ^bb0(%ab: tensor<2x8xf32>, %bb: tensor<8x32xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x32xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x32xf32>) -> tensor<2x32xf32>
    %z = linalg.matmul ins(%ab, %bb : tensor<2x8xf32>, tensor<8x32xf32>)
                       outs(%acc : tensor<2x32xf32>) -> tensor<2x32xf32>
    %s = spmd.psum %z over ["j"] : tensor<2x32xf32>
    spmd.yield %s : tensor<2x32xf32>
  }
  return %c : tensor<8x32xf32>
}
