// RUN: trellis-opt %s --trellis-import-stablehlo --split-input-file | FileCheck %s

// Start indices known at import give static offsets: a dimension the
// slice takes whole starts at 0 whatever its index, and a constant index
// is clamped into range now (7 into [0, 4] is 4, -3 is 0). Only the
// run-time index is clamped by arith ops.
// CHECK-LABEL: func.func public @slice
// CHECK-SAME: (%[[A:.*]]: tensor<4x6x8xf32>, %[[I:.*]]: tensor<i32>, %[[J:.*]]: tensor<i32>)
// CHECK-NOT: tensor.extract %[[J]]
// CHECK: %[[S:.*]] = tensor.extract %[[I]][] : tensor<i32>
// CHECK: arith.maxsi
// CHECK: %[[MIN:.*]] = arith.minsi
// CHECK: %[[OFF:.*]] = arith.index_cast %[[MIN]] : i64 to index
// CHECK: tensor.extract_slice %[[A]][%[[OFF]], 0, 0] [1, 6, 8] [1, 1, 1]
// CHECK: tensor.extract_slice %[[A]][0, 4, 0] [4, 2, 8] [1, 1, 1]
// CHECK: tensor.extract_slice %[[A]][0, 0, 0] [4, 2, 8] [1, 1, 1]
module @m {
  func.func public @slice(%a: tensor<4x6x8xf32>, %i: tensor<i32>, %j: tensor<i32>) -> (tensor<1x6x8xf32>, tensor<4x2x8xf32>, tensor<4x2x8xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %c7 = stablehlo.constant dense<7> : tensor<i32>
    %cm3 = stablehlo.constant dense<-3> : tensor<i32>
    %0 = stablehlo.dynamic_slice %a, %i, %j, %j, sizes = [1, 6, 8] : (tensor<4x6x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x6x8xf32>
    %1 = stablehlo.dynamic_slice %a, %c0, %c7, %c0, sizes = [4, 2, 8] : (tensor<4x6x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x2x8xf32>
    %2 = stablehlo.dynamic_slice %a, %c0, %cm3, %c0, sizes = [4, 2, 8] : (tensor<4x6x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x2x8xf32>
    return %0, %1, %2 : tensor<1x6x8xf32>, tensor<4x2x8xf32>, tensor<4x2x8xf32>
  }
}

// -----

// An unsigned constant index at or past 2^63 is past the end (the last
// start that fits); a smaller one is clamped like a signed one. Narrow
// unsigned indices with the top bit set are large, not negative: ui8 200
// and ui32 4294967295 clamp to the end, not to 0.
// CHECK-LABEL: func.func public @unsigned
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[4, 0] [2, 3] [1, 1]
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[1, 3] [2, 3] [1, 1]
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[4, 3] [2, 3] [1, 1]
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[4, 3] [2, 3] [1, 1]
module @m {
  func.func public @unsigned(%a: tensor<6x6xf32>, %u: tensor<2x3xf32>) -> (tensor<6x6xf32>, tensor<6x6xf32>, tensor<6x6xf32>, tensor<6x6xf32>) {
    %big = stablehlo.constant dense<9223372036854775808> : tensor<ui64>
    %zero = stablehlo.constant dense<0> : tensor<ui64>
    %one = stablehlo.constant dense<1> : tensor<ui64>
    %ten = stablehlo.constant dense<10> : tensor<ui64>
    %0 = stablehlo.dynamic_update_slice %a, %u, %big, %zero : (tensor<6x6xf32>, tensor<2x3xf32>, tensor<ui64>, tensor<ui64>) -> tensor<6x6xf32>
    %1 = stablehlo.dynamic_update_slice %a, %u, %one, %ten : (tensor<6x6xf32>, tensor<2x3xf32>, tensor<ui64>, tensor<ui64>) -> tensor<6x6xf32>
    %b8 = stablehlo.constant dense<200> : tensor<ui8>
    %2 = stablehlo.dynamic_update_slice %a, %u, %b8, %b8 : (tensor<6x6xf32>, tensor<2x3xf32>, tensor<ui8>, tensor<ui8>) -> tensor<6x6xf32>
    %b32 = stablehlo.constant dense<4294967295> : tensor<ui32>
    %3 = stablehlo.dynamic_update_slice %a, %u, %b32, %b32 : (tensor<6x6xf32>, tensor<2x3xf32>, tensor<ui32>, tensor<ui32>) -> tensor<6x6xf32>
    return %0, %1, %2, %3 : tensor<6x6xf32>, tensor<6x6xf32>, tensor<6x6xf32>, tensor<6x6xf32>
  }
}
