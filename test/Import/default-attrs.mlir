// Attributes StableHLO prints only when they differ from their default
// parse with the default: index_vector_dim (0), and dimension numbers
// with every field defaulted (`<>`).
// RUN: trellis-opt %s | FileCheck %s

// CHECK-LABEL: func.func @gather_all_default
// CHECK: #stablehlo.gather<index_vector_dim = 0>
func.func @gather_all_default(%x: tensor<f32>, %i: tensor<0xi32>) -> tensor<f32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<>, slice_sizes = array<i64>}> : (tensor<f32>, tensor<0xi32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @scatter_no_index_vector_dim
// CHECK: #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>
func.func @scatter_no_index_vector_dim(%x: tensor<8x4xf32>, %idx: tensor<1x3xi32>, %upd: tensor<3x4xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.scatter"(%x, %idx, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x4xf32>, tensor<1x3xi32>, tensor<3x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @gather_no_index_vector_dim
// CHECK: #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 0>
func.func @gather_no_index_vector_dim(%x: tensor<8x4xf32>, %idx: tensor<1x3xi32>) -> tensor<3x4xf32> {
  %0 = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0]>, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<1x3xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
