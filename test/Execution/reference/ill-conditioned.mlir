// sin of sums of 1024 products: f32 rounding of each sum (about 1e-5 at
// these magnitudes) passes through sin into differences beyond the default
// tolerance near sin's zeros, in the oracle as in the partitioned run. The
// f64 re-evaluation shows the run as close to the exact values as the
// oracle: not a mismatch, exit 0, with the counts said.
// RUN: trellis-run %s --random 1 --reference --quiet | FileCheck %s
// CHECK: oracle: the unpartitioned program on 1 device
// CHECK: reference: out0 (float32[512,512], 8 devices vs 1): {{[0-9]+}} of 262144 elements differ;
// CHECK-SAME: re-evaluated in f64, of the {{[0-9]+}} differing elements the run is within tolerance of the f64 value at
// CHECK-SAME: : rounding the computation magnifies, not a mismatch
trellis.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%a: tensor<512x1024xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {"y"}]>},
                %b: tensor<1024x512xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"y"}, {}]>})
    -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %m = linalg.matmul ins(%a, %b : tensor<512x1024xf32>, tensor<1024x512xf32>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
  %s = math.sin %m : tensor<512x512xf32>
  return %s : tensor<512x512xf32>
}
