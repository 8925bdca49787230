// Unsigned integers (what partition_id arithmetic and some indexing use):
// imported as signless with unsigned division, remainder, comparison,
// maximum and conversions; division by zero gives all ones, as StableHLO
// specifies.
// RUN: trellis-run %s 2>&1 | FileCheck %s
// CHECK: out0: int64[4]
// CHECK-NEXT: [2000000000 4294967295          0          0]
// CHECK: out1: int64[4]
// CHECK-NEXT: [0 7 0 5]
// CHECK: out2: float32[4]
// CHECK-NEXT: [4.e+09 7.e+00 3.e+00 4.e+09]
// CHECK: out3: int32[4]
// CHECK-NEXT: [1 1 0 0]
// CHECK: out4: int64[4]
// CHECK-NEXT: [4000000000          7          0          5]
func.func @main() -> (tensor<4xi64>, tensor<4xi64>, tensor<4xf32>, tensor<4xi32>, tensor<4xi64>) {
  %a = stablehlo.constant dense<[4000000000, 7, 0, 5]> : tensor<4xui32>
  %b = stablehlo.constant dense<[2, 0, 3, 4000000000]> : tensor<4xui32>
  %q = stablehlo.divide %a, %b : tensor<4xui32>
  %r = stablehlo.remainder %a, %b : tensor<4xui32>
  %m = stablehlo.maximum %a, %b : tensor<4xui32>
  %c = stablehlo.compare  GT, %a, %b : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  %q64 = stablehlo.convert %q : (tensor<4xui32>) -> tensor<4xi64>
  %r64 = stablehlo.convert %r : (tensor<4xui32>) -> tensor<4xi64>
  %mf = stablehlo.convert %m : (tensor<4xui32>) -> tensor<4xf32>
  %ci = stablehlo.convert %c : (tensor<4xi1>) -> tensor<4xi32>
  %a64 = stablehlo.convert %a : (tensor<4xui32>) -> tensor<4xi64>
  return %q64, %r64, %mf, %ci, %a64 : tensor<4xi64>, tensor<4xi64>, tensor<4xf32>, tensor<4xi32>, tensor<4xi64>
}
