// RUN: trellis-opt %s --spmd-to-runtime --split-input-file | FileCheck %s
// RUN: trellis-opt %s --spmd-to-runtime=async-ppermute --split-input-file | FileCheck %s --check-prefix=ASYNC

trellis.mesh @mesh = <["i"=4, "j"=2]>

// Sites are numbered in order; the module lists each op and location.
// CHECK: module attributes {spmd.sites = [{loc = "{{.*}}spmd-to-runtime.mlir:{{[0-9]+}}:{{[0-9]+}}", op = "spmd.psum"}, {loc = {{.*}}, op = "spmd.pmax"}, {loc = {{.*}}, op = "spmd.pmean"}
// CHECK-SAME: trellis.rt_abi_version = 5 : i32
// CHECK-DAG: func.func private @trellis_rt_all_reduce(i64, i64, i32, i32, i64, i64, i64)

// CHECK-LABEL: func.func @reduce
func.func @reduce(%b: tensor<2x32xf32>) -> (tensor<2x32xf32>, tensor<2x32xf32>, tensor<2x32xf32>)
    attributes {spmd.mesh = @mesh} {
  // The operand as a read-only buffer, a fresh output, then the call:
  // site 0, axes ("j") packed as 2, f32 (0), sum (0), 64 elements.
  // CHECK: %[[IN:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<2x32xf32> to memref<2x32xf32>
  // CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x32xf32>
  // CHECK: %[[SITE:.*]] = arith.constant 0 : i64
  // CHECK: %[[AXES:.*]] = arith.constant 2 : i64
  // CHECK: %[[F32:.*]] = arith.constant 0 : i32
  // CHECK: %[[SUM:.*]] = arith.constant 0 : i32
  // CHECK: %[[N:.*]] = arith.constant 64 : i64
  // CHECK: call @trellis_rt_all_reduce(%[[SITE]], %[[AXES]], %[[F32]], %[[SUM]], %{{.*}}, %{{.*}}, %[[N]])
  // CHECK: bufferization.to_tensor %[[OUT]] restrict : memref<2x32xf32> to tensor<2x32xf32>
  %s = spmd.psum %b over ["j"] : tensor<2x32xf32>
  // ("i", "j") packs as 1 | 2 << 4 = 33; max is reduction 1.
  // CHECK: arith.constant 33 : i64
  // CHECK: arith.constant 1 : i32
  // CHECK: call @trellis_rt_all_reduce
  %m = spmd.pmax %b over ["i", "j"] : tensor<2x32xf32>
  // ("j", "i") packs as 2 | 1 << 4 = 18; mean is reduction 3.
  // CHECK: arith.constant 18 : i64
  // CHECK: arith.constant 3 : i32
  // CHECK: call @trellis_rt_all_reduce
  %a = spmd.pmean %b over ["j", "i"] : tensor<2x32xf32>
  return %s, %m, %a : tensor<2x32xf32>, tensor<2x32xf32>, tensor<2x32xf32>
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>

// CHECK-DAG: func.func private @trellis_rt_all_gather(i64, i64, i32, i64, i64, i64, i64)
// CHECK-DAG: func.func private @trellis_rt_reduce_scatter(i64, i64, i32, i32, i64, i64, i64, i64)
// CHECK-DAG: func.func private @trellis_rt_all_to_all(i64, i64, i32, i64, i64, i64, i64, i64, i64)

// Gathers, scatters and all_to_all pass outer/inner views of the arrays.
// CHECK-LABEL: func.func @data_movement
func.func @data_movement(%b: tensor<3x4x5xf32>) attributes {spmd.mesh = @mesh} {
  // Tiled gather along dim 1: outer 3, inner 4*5.
  // CHECK: arith.constant 3 : i64
  // CHECK: arith.constant 20 : i64
  // CHECK: call @trellis_rt_all_gather
  %g = spmd.all_gather %b over ["i"] dim 1 tiled : tensor<3x4x5xf32> -> tensor<3x16x5xf32>
  // Stacked gather at dim 0: outer 1, inner 60.
  // CHECK: arith.constant 1 : i64
  // CHECK: arith.constant 60 : i64
  // CHECK: call @trellis_rt_all_gather
  %s = spmd.all_gather_invariant %b over ["j"] dim 0 : tensor<3x4x5xf32> -> tensor<2x3x4x5xf32>
  // Reduce-scatter along dim 1 over 4 devices: outer 3, inner 4*5/4.
  // CHECK: arith.constant 3 : i64
  // CHECK: arith.constant 5 : i64
  // CHECK: call @trellis_rt_reduce_scatter
  %r = spmd.psum_scatter %b over ["i"] dim 1 tiled : tensor<3x4x5xf32> -> tensor<3x1x5xf32>
  // all_to_all split 1 concat 2 over 4: chunk 3x1x5; split 3 x 5, concat 3 x 5.
  // CHECK: call @trellis_rt_all_to_all(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
  %t = spmd.all_to_all %b over ["i"] split 1 concat 2 : tensor<3x4x5xf32> -> tensor<3x1x20xf32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>

// CHECK: spmd.sites = [{loc = {{.*}}, op = "spmd.ppermute", pairs = array<i64: 0, 1, 1, 0>}]
// CHECK-LABEL: func.func @local_ops
func.func @local_ops(%b: tensor<8xf32>) -> (index, i32, tensor<2xf32>, tensor<8xf32>, tensor<8xf32>)
    attributes {spmd.mesh = @mesh} {
  // axis_size is a constant; axis_index calls the runtime.
  // CHECK-DAG: %[[FOUR:.*]] = arith.constant 4 : index
  // CHECK-DAG: %[[IDX:.*]] = call @trellis_rt_axis_index(%{{.*}}) : (i64) -> i64
  // CHECK: arith.trunci %[[IDX]] : i64 to i32
  %n = spmd.axis_size over ["i"] : index
  %i = spmd.axis_index over ["j", "i"] : i32
  // pscatter is a local slice at axis_index * block; pvary disappears.
  // CHECK: %[[R:.*]] = call @trellis_rt_axis_index
  // CHECK: %[[RI:.*]] = arith.index_cast %[[R]] : i64 to index
  // CHECK: %[[OFF:.*]] = arith.muli %[[RI]], %{{.*}} : index
  // CHECK: tensor.extract_slice %{{.*}}[%[[OFF]]] [2] [1] : tensor<8xf32> to tensor<2xf32>
  %p = spmd.pscatter %b over ["i"] dim 0 tiled : tensor<8xf32> -> tensor<2xf32>
  // CHECK-NOT: spmd.pvary
  %v = spmd.pvary %b over ["i"] : tensor<8xf32>
  // CHECK: call @trellis_rt_ppermute(
  // ASYNC: %[[H:.*]] = call @trellis_rt_ppermute_start_direct(%{{.*}}, %{{.*}}, %{{.*}}, %[[IN:.*]], %[[OUT:.*]], %{{.*}}) : (i64, i64, i32, i64, i64, i64) -> i64
  // ASYNC: call @trellis_rt_ppermute_wait_direct(%[[H]], %[[IN]], %[[OUT]], %[[IN]]) : (i64, i64, i64, i64) -> ()
  %q = spmd.ppermute %b over ["j"] pairs [[0, 1], [1, 0]] : tensor<8xf32>
  return %n, %i, %p, %v, %q : index, i32, tensor<2xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

// A future carried through control flow: ppermute_start becomes the staged
// trellis_rt_ppermute_start (the payload is copied aside at once; the
// handle is an i64, also when a loop carries it) and ppermute_wait waits
// into a fresh buffer.
// CHECK: spmd.sites = [{loc = {{.*}}, op = "spmd.ppermute_start", pairs = array<i64: 0, 1, 1, 2, 2, 3, 3, 0>}, {loc = {{.*}}, op = "spmd.ppermute_start", pairs = array<i64: 0, 1, 1, 2, 2, 3, 3, 0>}]
// CHECK-LABEL: func.func @start_wait
// CHECK: %[[H0:.*]] = call @trellis_rt_ppermute_start(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i32, i64, i64) -> i64
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[H:.*]] = %[[H0]]) -> (i64) {
// CHECK:   %[[BUF:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK:   func.call @trellis_rt_ppermute_wait(%[[H]], %{{.*}}) : (i64, i64) -> ()
// CHECK:   bufferization.to_tensor %[[BUF]] restrict :
// CHECK:   %[[NEXT:.*]] = func.call @trellis_rt_ppermute_start
// CHECK:   scf.yield %[[NEXT]] : i64
// CHECK: call @trellis_rt_ppermute_wait(%[[R]], %{{.*}}) : (i64, i64) -> ()
func.func @start_wait(%x: tensor<8xf32>) -> tensor<8xf32> attributes {spmd.mesh = @mesh} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %f0 = spmd.ppermute_start %x over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]]
      : tensor<8xf32> -> !spmd.future<tensor<8xf32>>
  %f = scf.for %i = %c0 to %c3 step %c1 iter_args(%in = %f0) -> (!spmd.future<tensor<8xf32>>) {
    %v = spmd.ppermute_wait %in : !spmd.future<tensor<8xf32>>
    %next = spmd.ppermute_start %v over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]]
        : tensor<8xf32> -> !spmd.future<tensor<8xf32>>
    scf.yield %next : !spmd.future<tensor<8xf32>>
  }
  %r = spmd.ppermute_wait %f : !spmd.future<tensor<8xf32>>
  return %r : tensor<8xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

// A future that goes straight to its wait: direct. The start names the sent
// tensor's buffer and a destination allocated there; the wait names both
// again (keeping them alive until it) and reads the sent tensor once more
// through a view of any layout (so bufferization does not write over it
// before the wait); the result is the destination.
// CHECK-LABEL: func.func @direct
// CHECK: %[[IN:.*]] = bufferization.to_buffer %[[X:.*]] read_only : tensor<8xf32> to memref<8xf32>
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK: %[[H:.*]] = call @trellis_rt_ppermute_start_direct(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i32, i64, i64, i64) -> i64
// CHECK: %[[MID:.*]] = arith.addf
// CHECK: %[[ALIAS:.*]] = bufferization.to_buffer %[[X]] read_only : tensor<8xf32> to memref<8xf32, strided<[?], offset: ?>>
// CHECK: memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK: memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK: memref.extract_aligned_pointer_as_index %[[ALIAS]]
// CHECK: call @trellis_rt_ppermute_wait_direct(%[[H]], %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64) -> ()
// CHECK: %[[R:.*]] = bufferization.to_tensor %[[OUT]] restrict :
// CHECK: return %[[R]], %[[MID]]
func.func @direct(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {spmd.mesh = @mesh} {
  %f = spmd.ppermute_start %x over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]]
      : tensor<8xf32> -> !spmd.future<tensor<8xf32>>
  %m = arith.addf %x, %x : tensor<8xf32>
  %r = spmd.ppermute_wait %f : !spmd.future<tensor<8xf32>>
  return %r, %m : tensor<8xf32>, tensor<8xf32>
}
