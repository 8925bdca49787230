// gather (jnp.take along axis 1 with an out-of-range index), dynamic_slice
// and dynamic_update_slice (start indices clamped into range), on an
// operand split over a 2x2 mesh, against values worked out by hand for
// x = iota(4x6) and against the unpartitioned program.
// RUN: trellis-run %s --iota --reference 2>&1 | FileCheck %s
// CHECK: out0: float32[4,3]
// CHECK-NEXT: {{\[}}[ 5.  0.  5.]
// CHECK-NEXT:  [11.  6. 11.]
// CHECK-NEXT:  [17. 12. 17.]
// CHECK-NEXT:  [23. 18. 23.]]
// CHECK: out1: float32[2,3]
// CHECK-NEXT: {{\[}}[15. 16. 17.]
// CHECK-NEXT:  [21. 22. 23.]]
// CHECK: out2: float32[4,6]
// CHECK-NEXT: {{\[}}[ 0.  1.  2.  3.  4.  5.]
// CHECK-NEXT:  [ 6.  7.  8.  9. 10. 11.]
// CHECK-NEXT:  [-1. -1. 14. 15. 16. 17.]
// CHECK-NEXT:  [-1. -1. 20. 21. 22. 23.]]
// CHECK-COUNT-3: match
module @jit_f attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func public @main(%x: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> (tensor<4x3xf32>, tensor<2x3xf32>, tensor<4x6xf32>) {
    %idx = stablehlo.constant dense<[[5], [0], [9]]> : tensor<3x1xi32>
    %0 = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 4, 1>}> : (tensor<4x6xf32>, tensor<3x1xi32>) -> tensor<4x3xf32>
    %i = stablehlo.constant dense<2> : tensor<i32>
    %j = stablehlo.constant dense<4> : tensor<i32>
    %1 = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 3] : (tensor<4x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    %u = stablehlo.constant dense<-1.000000e+00> : tensor<2x2xf32>
    %k = stablehlo.constant dense<3> : tensor<i32>
    %l = stablehlo.constant dense<-1> : tensor<i32>
    %2 = stablehlo.dynamic_update_slice %x, %u, %k, %l : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
    return %0, %1, %2 : tensor<4x3xf32>, tensor<2x3xf32>, tensor<4x6xf32>
  }
}
