// RUN: trellis-opt %s -split-input-file -canonicalize -allow-unregistered-dialect | FileCheck %s

// Axis sizes are static: axis_size folds to a constant.
trellis.mesh @m = <["i"=4, "j"=2]>
// CHECK-LABEL: func @axis_size
func.func @axis_size(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = spmd.shard_map @m in_specs = [[{"i"}]] out_specs = [[{"i"}]] (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    // CHECK-NOT: spmd.axis_size
    // CHECK: arith.constant 1.000000e+01 : f32
    %n = spmd.axis_size over ["i", "j"] : index
    %m = spmd.axis_size over ["j"] : i32
    %k = arith.index_cast %n : index to i32
    %l = arith.addi %k, %m : i32
    %f = arith.sitofp %l : i32 to f32
    %e = tensor.empty() : tensor<2xf32>
    %g = linalg.fill ins(%f : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
    %s = arith.addf %b, %g : tensor<2xf32>
    spmd.yield %s : tensor<2xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// Over a size-1 axis, collectives that keep the operand's variance are the
// identity; reductions and pvary are not folded (their result's variance
// differs from the operand's), nor is a ppermute whose device receives
// zeros, nor an axis_index (it varies over its axes).
trellis.mesh @m = <["a"=1, "i"=2]>
// CHECK-LABEL: func @size_one
func.func @size_one(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = spmd.shard_map @m in_specs = [[{"a", "i"}]] out_specs = [[{"a", "i"}]] (%x) : (tensor<8x4xf32>) -> tensor<8x4xf32> {
  ^bb0(%b: tensor<4x4xf32>):
    // CHECK-NOT: spmd.all_gather %{{.*}} tiled
    // CHECK-NOT: spmd.psum_scatter
    // CHECK-NOT: spmd.all_to_all
    // CHECK: %[[G:.*]] = spmd.all_gather %{{.*}} over ["a"] dim 0 : tensor<4x4xf32> -> tensor<1x4x4xf32>
    // CHECK: spmd.psum %{{.*}} over ["a"]
    // CHECK: spmd.pvary %{{.*}} over ["a"]
    // CHECK: spmd.ppermute %{{.*}} over ["a"] pairs []
    // CHECK-NOT: spmd.ppermute
    // CHECK: spmd.axis_index over ["a"]
    %g = spmd.all_gather %b over ["a"] dim 0 tiled : tensor<4x4xf32> -> tensor<4x4xf32>
    %g2 = spmd.all_gather %g over ["a"] dim 0 : tensor<4x4xf32> -> tensor<1x4x4xf32>
    %s = spmd.psum_scatter %g over ["a"] dim 1 tiled : tensor<4x4xf32> -> tensor<4x4xf32>
    %t = spmd.all_to_all %s over ["a"] split 0 concat 1 : tensor<4x4xf32> -> tensor<4x4xf32>
    %p = spmd.psum %t over ["a"] : tensor<4x4xf32>
    %v = spmd.pvary %p over ["a"] : tensor<4x4xf32>
    %q = spmd.ppermute %v over ["a"] pairs [[0, 0]] : tensor<4x4xf32>
    %z = spmd.ppermute %q over ["a"] pairs [] : tensor<4x4xf32>
    %i = spmd.axis_index over ["a"] : index
    %e = tensor.extract %z[%i, %i] : tensor<4x4xf32>
    %u = tensor.insert %e into %z[%i, %i] : tensor<4x4xf32>
    "test.keep"(%g2) : (tensor<1x4x4xf32>) -> ()
    spmd.yield %u : tensor<4x4xf32>
  }
  return %r : tensor<8x4xf32>
}

// -----

// pvary(pvary(x, A), B) is pvary(x, A + B).
trellis.mesh @m = <["i"=2, "j"=2]>
// CHECK-LABEL: func @pvary_pvary
func.func @pvary_pvary(%x: tensor<4xf32>) -> tensor<16xf32> {
  %r = spmd.shard_map @m in_specs = [[]] out_specs = [[{"i", "j"}]] (%x) : (tensor<4xf32>) -> tensor<16xf32> {
  ^bb0(%b: tensor<4xf32>):
    // CHECK: %[[V:.*]] = spmd.pvary %{{.*}} over ["i", "j"] : tensor<4xf32> -> tensor<4xf32, #spmd.vary<["i", "j"]>>
    // CHECK-NEXT: spmd.yield %[[V]]
    %v = spmd.pvary %b over ["i"] : tensor<4xf32> -> tensor<4xf32, #spmd.vary<["i"]>>
    %w = spmd.pvary %v over ["j"] : tensor<4xf32, #spmd.vary<["i"]>> -> tensor<4xf32, #spmd.vary<["i", "j"]>>
    spmd.yield %w : tensor<4xf32, #spmd.vary<["i", "j"]>>
  }
  return %r : tensor<16xf32>
}

// -----

// In typed IR, reducing a pvary over its own axes combines equal copies:
// psum is a multiplication by the group size, pmax, pmin and pmean the
// copy itself. No communication is left.
trellis.mesh @m = <["i"=4, "j"=2]>
// CHECK-LABEL: func @reduce_pvary
func.func @reduce_pvary(%x: tensor<8xf32>, %y: tensor<4xi32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<4xi32>) {
  %r:3 = spmd.shard_map @m in_specs = [[{"j"}], []] out_specs = [[{"j"}], [{"j"}], []] (%x, %y) : (tensor<8xf32>, tensor<4xi32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<4xi32>) {
  ^bb0(%b: tensor<4xf32, #spmd.vary<["j"]>>, %c: tensor<4xi32>):
    // CHECK-NOT: spmd.psum
    // CHECK-NOT: spmd.pmax
    // CHECK-DAG: %[[F:.*]] = arith.constant dense<4.000000e+00> : tensor<4xf32, #spmd.vary<["j"]>>
    // CHECK-DAG: %[[I:.*]] = arith.constant dense<8> : tensor<4xi32>
    // CHECK-DAG: %[[S:.*]] = arith.mulf %[[B:.*]], %[[F]] : tensor<4xf32, #spmd.vary<["j"]>>
    // CHECK-DAG: %[[T:.*]] = arith.muli %[[C:.*]], %[[I]] : tensor<4xi32>
    // CHECK: spmd.yield %[[S]], %[[B]], %[[T]]
    %v = spmd.pvary %b over ["i"] : tensor<4xf32, #spmd.vary<["j"]>> -> tensor<4xf32, #spmd.vary<["j", "i"]>>
    %s = spmd.psum %v over ["i"] : tensor<4xf32, #spmd.vary<["j", "i"]>> -> tensor<4xf32, #spmd.vary<["j"]>>
    %m = spmd.pmax %v over ["i"] : tensor<4xf32, #spmd.vary<["j", "i"]>> -> tensor<4xf32, #spmd.vary<["j"]>>
    %w = spmd.pvary %c over ["i", "j"] : tensor<4xi32> -> tensor<4xi32, #spmd.vary<["i", "j"]>>
    %t = spmd.psum %w over ["j", "i"] : tensor<4xi32, #spmd.vary<["i", "j"]>> -> tensor<4xi32>
    spmd.yield %s, %m, %t : tensor<4xf32, #spmd.vary<["j"]>>, tensor<4xf32, #spmd.vary<["j"]>>, tensor<4xi32>
  }
  return %r#0, %r#1, %r#2 : tensor<8xf32>, tensor<8xf32>, tensor<4xi32>
}

// -----

// Untyped IR: the pvary's operand may vary over the reduced axis (legal
// with check_vma = false; pvary runs as the identity), so psum sums
// different values and must stay. In typed IR, a reduction over other axes
// than the pvary's stays too.
trellis.mesh @m = <["i"=4, "j"=2]>
// CHECK-LABEL: func @psum_of_pvary_kept
func.func @psum_of_pvary_kept(%x: tensor<16xf32>, %y: tensor<8xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %r:2 = spmd.shard_map @m in_specs = [[{"i"}], [{"j"}]] out_specs = [[{"i"}], [{"i"}]] check_vma = false (%x, %y) : (tensor<16xf32>, tensor<8xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  ^bb0(%b: tensor<4xf32>, %c: tensor<4xf32, #spmd.vary<["j"]>>):
    // CHECK: %[[V:.*]] = spmd.pvary
    // CHECK: spmd.psum %[[V]] over ["i"]
    // CHECK: %[[W:.*]] = spmd.pvary
    // CHECK: spmd.psum %[[W]] over ["j"]
    %v = spmd.pvary %b over ["i"] : tensor<4xf32>
    %s = spmd.psum %v over ["i"] : tensor<4xf32>
    %w = spmd.pvary %c over ["i"] : tensor<4xf32, #spmd.vary<["j"]>> -> tensor<4xf32, #spmd.vary<["j", "i"]>>
    %t = spmd.psum %w over ["j"] : tensor<4xf32, #spmd.vary<["j", "i"]>> -> tensor<4xf32, #spmd.vary<["i"]>>
    spmd.yield %s, %t : tensor<4xf32>, tensor<4xf32, #spmd.vary<["i"]>>
  }
  return %r#0, %r#1 : tensor<16xf32>, tensor<16xf32>
}
