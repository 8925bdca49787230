// Dimension numbers with fields StableHLO leaves out when they have their
// default: a scatter whose index vector is dimension 0 of its indices
// prints no index_vector_dim (it used to be a parse error). Against
// numpy and the unpartitioned program.
// RUN: rm -rf %t && trellis-run %s --random 3 --reference --save-inputs --output-dir %t --quiet | FileCheck %s
// RUN: %python %S/check_jax_forms.py scatter-default %t | FileCheck %s --check-prefix=NP
// RUN: trellis-opt %s | FileCheck %s --check-prefix=IR
// CHECK: match
// NP: scatter-default: 1 results equal numpy
// IR: #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>
module @jit_f {
  func.func public @main(%x: tensor<8x4xf32>, %idx: tensor<1x3xi32>, %upd: tensor<3x4xf32>) -> tensor<8x4xf32> {
    %0 = "stablehlo.scatter"(%x, %idx, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8x4xf32>, tensor<1x3xi32>, tensor<3x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
