// bf16 .npy files: trellis-run writes '<V2' (raw 2-byte values, as np.save
// of an ml_dtypes.bfloat16 array does) and reads '<V2' and '|V2' (a numpy
// void view) as bf16. --save-inputs used to write files --input refused.
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-run %s --random 3 --save-inputs --output-dir %t/a
// RUN: trellis-run %s --input 0=%t/a/arg0.npy --output-dir %t/b
// RUN: cmp %t/a/out0.npy %t/b/out0.npy
// RUN: %python %S/Inputs/bf16_npy.py %t/a/arg0.npy %t/a/out0.npy %t/void.npy | FileCheck %s --check-prefix=NUMPY
// RUN: trellis-run %s --input 0=%t/void.npy --print | FileCheck %s
// NUMPY: arg0 <V2, out0 <V2: out0 == 2 * arg0 exactly
// CHECK: out0: bfloat16[4]
// CHECK-NEXT: [ 2.  -3.   0.5 -0. ]

trellis.mesh @m = <["i"=2]>
func.func @main(%x: tensor<4xbf16> {trellis.sharding = #trellis.sharding<@m, [{"i"}]>}) -> tensor<4xbf16> {
  %y = arith.addf %x, %x : tensor<4xbf16>
  return %y : tensor<4xbf16>
}
