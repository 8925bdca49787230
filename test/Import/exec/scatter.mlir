// scatter as JAX prints x.at[idx].add(v) and x.at[idx].set(v): repeated
// indices accumulate, an index whose window does not fit is dropped (JAX's
// default FILL_OR_DROP), on an operand split over a 2x2 mesh; against
// values worked out by hand for x = iota(8x4), v = iota(3x4), and against
// the unpartitioned program.
// RUN: trellis-run %s --iota --reference 2>&1 | FileCheck %s
// CHECK: out0: float32[8,4]
// CHECK-NEXT: {{\[}}[ 0.  1.  2.  3.]
// CHECK-NEXT:  [ 8. 11. 14. 17.]
// CHECK-NEXT:  [ 8.  9. 10. 11.]
// CHECK: out1: float32[8,4]
// CHECK-NEXT: {{\[}}[ 0.  1.  2.  3.]
// CHECK-NEXT:  [ 4.  5.  6.  7.]
// CHECK-NEXT:  [ 8.  9. 10. 11.]
// CHECK-NEXT:  [12. 13. 14. 15.]
// CHECK-NEXT:  [16. 17. 18. 19.]
// CHECK-NEXT:  [20. 21. 22. 23.]
// CHECK-NEXT:  [ 0.  1.  2.  3.]
// CHECK-NEXT:  [ 8.  9. 10. 11.]]
// CHECK-COUNT-2: match
module @jit_f attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func public @main(%x: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %v: tensor<3x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
    %idx = stablehlo.constant dense<[[1], [1], [9]]> : tensor<3x1xi32>
    %0 = "stablehlo.scatter"(%x, %idx, %v) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<8x4xf32>
    %idx2 = stablehlo.constant dense<[[6], [-1], [7]]> : tensor<3x1xi32>
    %1 = "stablehlo.scatter"(%x, %idx2, %v) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
    }) : (tensor<8x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<8x4xf32>
    return %0, %1 : tensor<8x4xf32>, tensor<8x4xf32>
  }
}
