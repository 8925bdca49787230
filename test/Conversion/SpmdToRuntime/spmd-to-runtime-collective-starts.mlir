// RUN: trellis-opt %s --spmd-to-runtime --split-input-file | FileCheck %s

// The starts of all_gather, psum_scatter, psum and all_to_all call
// trellis_rt_collective_start with the kind (TRELLIS_RT_ALL_REDUCE 0,
// ALL_GATHER 1, REDUCE_SCATTER 2, ALL_TO_ALL 3), the reduction and the
// geometry their blocking entries take (unused ones 0); each wait calls
// trellis_rt_collective_wait into a fresh buffer.
trellis.mesh @mesh = <["i"=4, "j"=2]>

// CHECK: spmd.sites = [{loc = {{.*}}, op = "spmd.all_gather_start"}, {loc = {{.*}}, op = "spmd.psum_scatter_start"}, {loc = {{.*}}, op = "spmd.psum_start"}, {loc = {{.*}}, op = "spmd.all_to_all_start"}]
// CHECK-DAG: func.func private @trellis_rt_collective_start(i64, i32, i64, i32, i32, i64, i64, i64, i64, i64) -> i64
// CHECK-DAG: func.func private @trellis_rt_collective_wait(i64, i64)
// CHECK-LABEL: func.func @starts
func.func @starts(%b: tensor<3x4x5xf32>) -> (tensor<3x16x5xf32>, tensor<3x1x5xf32>, tensor<3x4x5xf32>, tensor<3x1x20xf32>)
    attributes {spmd.mesh = @mesh} {
  // Gather along dim 1 over "i" (axes 1): outer 3, inner 20.
  // CHECK: %[[SITE0:.*]] = arith.constant 0 : i64
  // CHECK-NEXT: %[[KIND0:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: %[[AXES0:.*]] = arith.constant 1 : i64
  // CHECK: %[[G00:.*]] = arith.constant 3 : i64
  // CHECK-NEXT: %[[G01:.*]] = arith.constant 20 : i64
  // CHECK-NEXT: %[[G02:.*]] = arith.constant 0 : i64
  // CHECK-NEXT: %[[G03:.*]] = arith.constant 0 : i64
  // CHECK-NEXT: %[[G:.*]] = call @trellis_rt_collective_start(%[[SITE0]], %[[KIND0]], %[[AXES0]], %{{.*}}, %{{.*}}, %{{.*}}, %[[G00]], %[[G01]], %[[G02]], %[[G03]])
  %fg = spmd.all_gather_start %b over ["i"] dim 1 tiled : tensor<3x4x5xf32> -> !spmd.future<tensor<3x16x5xf32>>
  // Reduce-scatter along dim 1 over 4: outer 3, inner 5.
  // CHECK: %[[SITE1:.*]] = arith.constant 1 : i64
  // CHECK-NEXT: %[[KIND1:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[AXES1:.*]] = arith.constant 1 : i64
  // CHECK: %[[G10:.*]] = arith.constant 3 : i64
  // CHECK-NEXT: %[[G11:.*]] = arith.constant 5 : i64
  // CHECK-NEXT: %[[G12:.*]] = arith.constant 0 : i64
  // CHECK-NEXT: %[[G13:.*]] = arith.constant 0 : i64
  // CHECK-NEXT: %[[S:.*]] = call @trellis_rt_collective_start(%[[SITE1]], %[[KIND1]], %[[AXES1]], %{{.*}}, %{{.*}}, %{{.*}}, %[[G10]], %[[G11]], %[[G12]], %[[G13]])
  %fs = spmd.psum_scatter_start %b over ["i"] dim 1 tiled : tensor<3x4x5xf32> -> !spmd.future<tensor<3x1x5xf32>>
  // All-reduce over ("i", "j") (axes 1 | 2 << 4): count 60.
  // CHECK: %[[SITE2:.*]] = arith.constant 2 : i64
  // CHECK-NEXT: %[[KIND2:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: %[[AXES2:.*]] = arith.constant 33 : i64
  // CHECK: %[[G20:.*]] = arith.constant 60 : i64
  // CHECK-NEXT: %[[G21:.*]] = arith.constant 0 : i64
  // CHECK-NEXT: %[[G22:.*]] = arith.constant 0 : i64
  // CHECK-NEXT: %[[G23:.*]] = arith.constant 0 : i64
  // CHECK-NEXT: %[[P:.*]] = call @trellis_rt_collective_start(%[[SITE2]], %[[KIND2]], %[[AXES2]], %{{.*}}, %{{.*}}, %{{.*}}, %[[G20]], %[[G21]], %[[G22]], %[[G23]])
  %fp = spmd.psum_start %b over ["i", "j"] : tensor<3x4x5xf32> -> !spmd.future<tensor<3x4x5xf32>>
  // all_to_all split 1 concat 2 over 4: split 3 x 5, chunk 3x1x5 concat 3 x 5.
  // CHECK: %[[SITE3:.*]] = arith.constant 3 : i64
  // CHECK-NEXT: %[[KIND3:.*]] = arith.constant 3 : i32
  // CHECK-NEXT: %[[AXES3:.*]] = arith.constant 1 : i64
  // CHECK: %[[G30:.*]] = arith.constant 3 : i64
  // CHECK-NEXT: %[[G31:.*]] = arith.constant 5 : i64
  // CHECK-NEXT: %[[G32:.*]] = arith.constant 3 : i64
  // CHECK-NEXT: %[[G33:.*]] = arith.constant 5 : i64
  // CHECK-NEXT: %[[T:.*]] = call @trellis_rt_collective_start(%[[SITE3]], %[[KIND3]], %[[AXES3]], %{{.*}}, %{{.*}}, %{{.*}}, %[[G30]], %[[G31]], %[[G32]], %[[G33]])
  %ft = spmd.all_to_all_start %b over ["i"] split 1 concat 2 : tensor<3x4x5xf32> -> !spmd.future<tensor<3x1x20xf32>>
  // CHECK: %[[GB:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x16x5xf32>
  // CHECK: call @trellis_rt_collective_wait(%[[G]], %{{.*}}) : (i64, i64) -> ()
  // CHECK: call @trellis_rt_collective_wait(%[[S]], %{{.*}})
  // CHECK: call @trellis_rt_collective_wait(%[[P]], %{{.*}})
  // CHECK: call @trellis_rt_collective_wait(%[[T]], %{{.*}})
  %g = spmd.collective_wait %fg : !spmd.future<tensor<3x16x5xf32>>
  %s = spmd.collective_wait %fs : !spmd.future<tensor<3x1x5xf32>>
  %p = spmd.collective_wait %fp : !spmd.future<tensor<3x4x5xf32>>
  %t = spmd.collective_wait %ft : !spmd.future<tensor<3x1x20xf32>>
  return %g, %s, %p, %t : tensor<3x16x5xf32>, tensor<3x1x5xf32>, tensor<3x4x5xf32>, tensor<3x1x20xf32>
}
