// Float to integer conversions saturate and send NaN to 0, as XLA converts
// (LLVM's fptosi would be poison for NaN, out-of-range values and
// infinities); f16 infinities too. dot_general of unsigned bytes widens
// them with zeros (200 * 200 * 2 = 80000, not (-56)^2 * 2).
// RUN: trellis-run %s 2>&1 | FileCheck %s
// CHECK: out0: int32[6]
// CHECK-NEXT: [          0  2147483647 -2147483648           2          -2  2147483647]
// CHECK: out1: int8[6]
// CHECK-NEXT: [   0  127 -128    2   -2  127]
// CHECK: out2: int32[4]
// CHECK-NEXT: [-2147483648  2147483647       65504          -3]
// CHECK: out3: int32[2,2]
// CHECK-NEXT: {{\[}}[80000 80000]
func.func @main() -> (tensor<6xi32>, tensor<6xi8>, tensor<4xi32>, tensor<2x2xi32>) {
  %a = stablehlo.constant dense<[0x7FC00000, 1.0e10, -1.0e10, 2.5, -2.5, 0x7F800000]> : tensor<6xf32>
  %0 = stablehlo.convert %a : (tensor<6xf32>) -> tensor<6xi32>
  %1 = stablehlo.convert %a : (tensor<6xf32>) -> tensor<6xi8>
  %h = stablehlo.constant dense<[0xFC00, 0x7C00, 65504.0, -3.5]> : tensor<4xf16>
  %2 = stablehlo.convert %h : (tensor<4xf16>) -> tensor<4xi32>
  %b = stablehlo.constant dense<200> : tensor<2x2xi32>
  %u = stablehlo.convert %b : (tensor<2x2xi32>) -> tensor<2x2xui8>
  %d = stablehlo.dot_general %u, %u, contracting_dims = [1] x [0] : (tensor<2x2xui8>, tensor<2x2xui8>) -> tensor<2x2xui32>
  %3 = stablehlo.convert %d : (tensor<2x2xui32>) -> tensor<2x2xi32>
  return %0, %1, %2, %3 : tensor<6xi32>, tensor<6xi8>, tensor<4xi32>, tensor<2x2xi32>
}
