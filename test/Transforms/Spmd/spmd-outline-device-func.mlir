// RUN: trellis-opt %s --spmd-outline-device-func | FileCheck %s
// RUN: trellis-opt %s --spmd-outline-device-func=erase-host | FileCheck %s --check-prefix=ERASE
// RUN: trellis-opt %s --spmd-outline-device-func=entry=one | FileCheck %s --check-prefix=ENTRY

trellis.mesh @mesh = <["i"=4, "j"=2]>

// The body becomes a function of per-device tensors; the shard_map names it.
// CHECK-LABEL: func.func @one(
// CHECK: spmd.shard_map @mesh {{.*}} attributes {spmd.device_func = @one_device}
// CHECK-LABEL: func.func @one_device(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x8xf32> {bufferization.writable = false}, %[[B:[^:]*]]: tensor<8x32xf32> {bufferization.writable = false}) -> tensor<2x32xf32>
// CHECK-SAME: attributes {llvm.emit_c_interface, spmd.manual_axes = ["i", "j"], spmd.mesh = @mesh}
// CHECK: %[[Z:.*]] = linalg.matmul ins(%[[A]], %[[B]]
// CHECK: %[[S:.*]] = spmd.psum %[[Z]] over ["j"]
// CHECK: return %[[S]] : tensor<2x32xf32>
func.func @one(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
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

// Several shard_maps in one function get numbered device functions; a partial
// shard_map (only "i" manual) has no complete per-device program and stays.
// CHECK-LABEL: func.func @two(
// CHECK: spmd.device_func = @two_device_0
// CHECK: spmd.shard_map @mesh manual_axes = ["i"]
// CHECK-NOT: spmd.device_func
// CHECK: spmd.device_func = @two_device_1
// CHECK: func.func @two_device_0(%{{.*}}: tensor<2xf32> {bufferization.writable = false}) -> tensor<2xf32>
// CHECK: func.func @two_device_1(%{{.*}}: tensor<1xf32> {bufferization.writable = false}) -> tensor<1xf32>
func.func @two(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %a = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]] (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    spmd.yield %b : tensor<2xf32>
  }
  %p = spmd.shard_map @mesh manual_axes = ["i"] in_specs = [[{"i"}]] out_specs = [[{"i"}]] (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    spmd.yield %b : tensor<2xf32>
  }
  %c = spmd.shard_map @mesh in_specs = [[{"i", "j"}]] out_specs = [[{"i", "j"}]] (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<1xf32>):
    spmd.yield %b : tensor<1xf32>
  }
  return %a, %p, %c : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// ERASE-NOT: func.func @one(
// ERASE-NOT: func.func @two(
// ERASE: func.func @one_device
// ERASE: func.func @two_device_0
// ERASE: func.func @two_device_1

// Only the entry is outlined.
// ENTRY: func.func @one_device
// ENTRY-NOT: @two_device
