// JAX's shard_alike and a propagation barrier as Shardy prints them
// (sdy.sharding_group, sdy.propagation_barrier), imported and run on 8
// devices against the unpartitioned program.
//
//   x: f32[8,16] over ("x", "y"); b, c: f32[8,16] unsharded
//   y = x * 2; z = shard_alike(y, b * 3)[1]       -> z laid out as y
//   w = barrier(c, FORWARD); out2 = -w, wanted over columns "x"
//
// RUN: trellis-opt %s --trellis-import-stablehlo | FileCheck %s --check-prefix=IMPORT
// RUN: trellis-run %s --random 5 --reference --show-shardings --quiet | FileCheck %s
// IMPORT: trellis.sharding_group %{{.*}} group_id = 7 : tensor<8x16xf32>
// IMPORT: trellis.sharding_group %{{.*}} group_id = 7 : tensor<8x16xf32>
// IMPORT: trellis.propagation_barrier %{{.*}} allowed_direction = "forward" : tensor<8x16xf32>

// b takes the group's sharding: each device reads one block of it.
// CHECK: arg1: float32[8,16]
// CHECK-NEXT: +
// CHECK-NEXT: [0:4, 0:4]
// CHECK-NEXT: dev 0
// The result wanted over columns does not reach c across the forward
// barrier: c stays whole on every device (without the barrier it would be
// split over columns), and each device slices its columns after it.
// CHECK: arg2: float32[8,16]
// CHECK-NEXT: +
// CHECK-NEXT: [0:8, 0:16]
// CHECK-NEXT: devs 0-7
// CHECK: reference: out0 (float32[8,16], 8 devices vs 1): match
// CHECK: reference: out1 (float32[8,16], 8 devices vs 1): match
// CHECK: reference: out2 (float32[8,16], 8 devices vs 1): match
module @jit_f attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>)
      -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
    %two = stablehlo.constant dense<2.0> : tensor<8x16xf32>
    %three = stablehlo.constant dense<3.0> : tensor<8x16xf32>
    %y = stablehlo.multiply %x, %two : tensor<8x16xf32>
    %z = stablehlo.multiply %b, %three : tensor<8x16xf32>
    sdy.sharding_group %y group_id = 7 : tensor<8x16xf32>
    sdy.sharding_group %z group_id = 7 : tensor<8x16xf32>
    %w = sdy.propagation_barrier %c allowed_direction=FORWARD : tensor<8x16xf32>
    %n = stablehlo.negate %w : tensor<8x16xf32>
    return %y, %z, %n : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
  }
}
