// jnp.roll(x, 2, axis=0) - x as JAX prints it (two slices and a
// concatenate) on rows split over 4 devices: each device passes the last
// two rows of its block to the next device around the ring and keeps the
// rest (24 B per device), where both slices gathered x (144 B).
// RUN: trellis-opt %s --trellis-import-stablehlo --trellis-global-to-manual | FileCheck %s
// RUN: trellis-opt %s --trellis-import-stablehlo --trellis-global-to-manual --trellis-comm-report -o /dev/null | FileCheck %s --check-prefix=BYTES
// RUN: trellis-run %s --random 1 --reference --quiet | FileCheck %s --check-prefix=EXEC
// CHECK: ^bb0(%[[X:.*]]: tensor<4x3xf32>):
// CHECK-NOT: spmd.all_gather
// CHECK: %[[END:.*]] = tensor.extract_slice %[[X]][2, 0] [2, 3] [1, 1]
// CHECK: %[[NEXT:.*]] = spmd.ppermute %[[END]] over ["x"] pairs {{\[}}[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<2x3xf32>
// CHECK: %[[START:.*]] = tensor.extract_slice %[[X]][0, 0] [2, 3] [1, 1]
// CHECK: tensor.concat dim(0) %[[NEXT]], %[[START]]
// CHECK-NOT: spmd.all_gather
// BYTES: total: 1 collective, 24 B per device
// EXEC: reference: out0 (float32[16,3], 4 devices vs 1): match
module @jit_f attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%x: tensor<16x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %0 = stablehlo.slice %x [14:16, 0:3] : (tensor<16x3xf32>) -> tensor<2x3xf32>
    %1 = stablehlo.slice %x [0:14, 0:3] : (tensor<16x3xf32>) -> tensor<14x3xf32>
    %2 = stablehlo.concatenate %0, %1, dim = 0 : (tensor<2x3xf32>, tensor<14x3xf32>) -> tensor<16x3xf32>
    %3 = stablehlo.subtract %2, %x : tensor<16x3xf32>
    return %3 : tensor<16x3xf32>
  }
}
