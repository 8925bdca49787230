// RUN: trellis-opt %s | FileCheck %s
// RUN: trellis-opt %s | trellis-opt | FileCheck %s
// RUN: trellis-opt -mlir-print-op-generic %s | trellis-opt | FileCheck %s

trellis.mesh @mesh = <["i"=4, "j"=2]>
trellis.mesh @line = <["x"=8]>

// Seed 000's matmul_basic.
// CHECK-LABEL: func @matmul_basic
// CHECK: spmd.shard_map @mesh in_specs = {{\[\[}}{"i"}, {"j"}], [{"j"}, {}]] out_specs = {{\[\[}}{"i"}, {}]] (%{{.*}}, %{{.*}}) : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32> {
// CHECK: ^bb0(%{{.*}}: tensor<2x8xf32>, %{{.*}}: tensor<8x32xf32>):
// CHECK: spmd.psum %{{.*}} over ["j"] : tensor<2x32xf32>
// CHECK: spmd.yield %{{.*}} : tensor<2x32xf32>
func.func @matmul_basic(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %c = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}], [{"j"}, {}]]
                            out_specs = [[{"i"}, {}]]
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

// Every collective.
// CHECK-LABEL: func @collectives
func.func @collectives(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}]] out_specs = [[{"i"}, {"j"}]]
      (%x) : (tensor<16x8xf32>) -> tensor<16x8xf32> {
  ^bb0(%b: tensor<4x4xf32>):
    // CHECK: spmd.psum %{{.*}} over ["i", "j"] : tensor<4x4xf32>
    %0 = spmd.psum %b over ["i", "j"] : tensor<4x4xf32>
    // CHECK: spmd.pmax %{{.*}} over ["i"] : tensor<4x4xf32>
    %1 = spmd.pmax %b over ["i"] : tensor<4x4xf32>
    // CHECK: spmd.pmin %{{.*}} over ["j"] : tensor<4x4xf32>
    %2 = spmd.pmin %b over ["j"] : tensor<4x4xf32>
    // CHECK: spmd.pmean %{{.*}} over ["i"] : tensor<4x4xf32>
    %3 = spmd.pmean %b over ["i"] : tensor<4x4xf32>
    // CHECK: spmd.pvary %{{.*}} over ["i"] : tensor<4x4xf32>
    %4 = spmd.pvary %0 over ["i"] : tensor<4x4xf32>
    // CHECK: spmd.all_gather %{{.*}} over ["i"] dim 0 tiled : tensor<4x4xf32> -> tensor<16x4xf32>
    %5 = spmd.all_gather %b over ["i"] dim 0 tiled : tensor<4x4xf32> -> tensor<16x4xf32>
    // CHECK: spmd.all_gather %{{.*}} over ["j"] dim 1 : tensor<4x4xf32> -> tensor<4x2x4xf32>
    %6 = spmd.all_gather %b over ["j"] dim 1 : tensor<4x4xf32> -> tensor<4x2x4xf32>
    // CHECK: spmd.all_gather_invariant %{{.*}} over ["i", "j"] dim 1 tiled : tensor<4x4xf32> -> tensor<4x32xf32>
    %7 = spmd.all_gather_invariant %b over ["i", "j"] dim 1 tiled : tensor<4x4xf32> -> tensor<4x32xf32>
    // CHECK: spmd.psum_scatter %{{.*}} over ["j"] dim 1 tiled : tensor<4x4xf32> -> tensor<4x2xf32>
    %8 = spmd.psum_scatter %b over ["j"] dim 1 tiled : tensor<4x4xf32> -> tensor<4x2xf32>
    // CHECK: spmd.psum_scatter %{{.*}} over ["i"] dim 0 : tensor<4x4xf32> -> tensor<4xf32>
    %9 = spmd.psum_scatter %b over ["i"] dim 0 : tensor<4x4xf32> -> tensor<4xf32>
    // CHECK: spmd.pscatter %{{.*}} over ["i"] dim 0 tiled : tensor<4x4xf32> -> tensor<1x4xf32>
    %10 = spmd.pscatter %0 over ["i"] dim 0 tiled : tensor<4x4xf32> -> tensor<1x4xf32>
    // CHECK: spmd.all_to_all %{{.*}} over ["i"] split 0 concat 1 : tensor<4x4xf32> -> tensor<1x16xf32>
    %11 = spmd.all_to_all %b over ["i"] split 0 concat 1 : tensor<4x4xf32> -> tensor<1x16xf32>
    // CHECK: spmd.all_to_all %{{.*}} over ["j"] split 1 concat 1 : tensor<4x4xf32> -> tensor<4x4xf32>
    %12 = spmd.all_to_all %b over ["j"] split 1 concat 1 : tensor<4x4xf32> -> tensor<4x4xf32>
    // CHECK: spmd.ppermute %{{.*}} over ["i"] pairs {{\[\[}}0, 3], [1, 0], [2, 1], [3, 2]] : tensor<4x4xf32>
    %13 = spmd.ppermute %b over ["i"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]] : tensor<4x4xf32>
    // CHECK: spmd.ppermute %{{.*}} over ["i", "j"] pairs {{\[\[}}0, 7]] : tensor<4x4xf32>
    %14 = spmd.ppermute %b over ["i", "j"] pairs [[0, 7]] : tensor<4x4xf32>
    // CHECK: spmd.axis_index over ["i"] : index
    %15 = spmd.axis_index over ["i"] : index
    // CHECK: spmd.axis_index over ["i", "j"] : i32
    %16 = spmd.axis_index over ["i", "j"] : i32
    // CHECK: spmd.axis_size over ["j"] : index
    %17 = spmd.axis_size over ["j"] : index
    spmd.yield %b : tensor<4x4xf32>
  }
  return %r : tensor<16x8xf32>
}

// Device-variance types (seed 001): `f32[2]{i}` and invariant results.
// CHECK-LABEL: func @variance
func.func @variance(%x: tensor<8xf32>) -> tensor<2xf32> {
  // CHECK: ^bb0(%{{.*}}: tensor<2xf32, #spmd.vary<["i"]>>):
  // CHECK: spmd.psum %{{.*}} over ["i"] : tensor<2xf32, #spmd.vary<["i"]>> -> tensor<2xf32, #spmd.vary<[]>>
  // CHECK: spmd.pvary %{{.*}} over ["i"] : tensor<2xf32, #spmd.vary<[]>> -> tensor<2xf32, #spmd.vary<["i"]>>
  // CHECK: spmd.all_gather_invariant %{{.*}} over ["i"] dim 0 tiled : tensor<2xf32, #spmd.vary<["i"]>> -> tensor<8xf32, #spmd.vary<[]>>
  // CHECK: spmd.pscatter %{{.*}} over ["i"] dim 0 tiled : tensor<8xf32, #spmd.vary<[]>> -> tensor<2xf32, #spmd.vary<["i"]>>
  %r = spmd.shard_map @mesh manual_axes = ["i"] in_specs = [[{"i"}]] out_specs = [[]]
      (%x) : (tensor<8xf32>) -> tensor<2xf32> {
  ^bb0(%b: tensor<2xf32, #spmd.vary<["i"]>>):
    %s = spmd.psum %b over ["i"] : tensor<2xf32, #spmd.vary<["i"]>> -> tensor<2xf32, #spmd.vary<[]>>
    %v = spmd.pvary %s over ["i"] : tensor<2xf32, #spmd.vary<[]>> -> tensor<2xf32, #spmd.vary<["i"]>>
    %g = spmd.all_gather_invariant %v over ["i"] dim 0 tiled : tensor<2xf32, #spmd.vary<["i"]>> -> tensor<8xf32, #spmd.vary<[]>>
    %p = spmd.pscatter %g over ["i"] dim 0 tiled : tensor<8xf32, #spmd.vary<[]>> -> tensor<2xf32, #spmd.vary<["i"]>>
    spmd.yield %s : tensor<2xf32, #spmd.vary<[]>>
  }
  return %r : tensor<2xf32>
}

// Partial manual, nested shard_maps, check_vma, several results, no inputs.
// CHECK-LABEL: func @nested
func.func @nested(%x: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<4x2xf32>) {
  // CHECK: spmd.shard_map @mesh manual_axes = ["j"] in_specs = {{\[\[}}{}, {"j"}]] out_specs = {{\[\[}}{}, {"j"}]] check_vma = false
  %r = spmd.shard_map @mesh manual_axes = ["j"] in_specs = [[{}, {"j"}]] out_specs = [[{}, {"j"}]] check_vma = false
      (%x) : (tensor<8x4xf32>) -> tensor<8x4xf32> {
  ^bb0(%b: tensor<8x2xf32>):
    // CHECK: spmd.shard_map @mesh in_specs = {{\[\[}}{"i"}]] out_specs = {{\[\[}}{"i"}]]
    %inner = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
        (%b) : (tensor<8x2xf32>) -> tensor<8x2xf32> {
    ^bb0(%c: tensor<2x2xf32>):
      %s = spmd.psum %c over ["i", "j"] : tensor<2x2xf32>
      spmd.yield %s : tensor<2x2xf32>
    }
    spmd.yield %inner : tensor<8x2xf32>
  }
  // CHECK: spmd.shard_map @mesh in_specs = [] out_specs = {{\[\[}}{"i"}, {"j"}]] () : () -> tensor<4x2xf32> attributes {note = 1 : i32}
  %z = spmd.shard_map @mesh in_specs = [] out_specs = [[{"i"}, {"j"}]] () : () -> tensor<4x2xf32> attributes {note = 1 : i32} {
    %c = arith.constant dense<3.0> : tensor<1x1xf32>
    spmd.yield %c : tensor<1x1xf32>
  }
  return %r, %z : tensor<8x4xf32>, tensor<4x2xf32>
}

// A device function outlined from a shard_map body.
// CHECK-LABEL: func @device_fn
// CHECK-SAME: attributes {spmd.manual_axes = ["x"], spmd.mesh = @line}
func.func @device_fn(%b: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.mesh = @line, spmd.manual_axes = ["x"]} {
  // CHECK: spmd.psum %{{.*}} over ["x"]
  %s = spmd.psum %b over ["x"] : tensor<4xf32>
  return %s : tensor<4xf32>
}
