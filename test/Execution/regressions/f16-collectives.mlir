// Reductions of f16 (psum, pmax, pmin, psum_scatter) stopped the run with
// "this reduction is not supported for f16" while the variance check
// accepted the program. They accumulate in f32 and round once, like bf16.
// RUN: trellis-run %s --iota --reference 2>&1 | FileCheck %s
// RUN: trellis-run %s --iota --no-kernels 2>&1 | FileCheck %s --check-prefix=VALUES
// x = iota(16); device i holds [4i, 4i + 4): the sum over devices of element
// k is 4k + 24, the max 12 + k, the min k.
// VALUES: out0: float16[4]
// VALUES-NEXT: [24. 28. 32. 36.]
// VALUES-NEXT: out1: float16[4]
// VALUES-NEXT: [12. 13. 14. 15.]
// VALUES-NEXT: out2: float16[4]
// VALUES-NEXT: [0. 1. 2. 3.]
// VALUES-NEXT: out3: float16[4]
// VALUES-NEXT: [24. 28. 32. 36.]
// CHECK-COUNT-4: reference: out{{[0-3]}} (float16[4], 4 devices vs 4): match

trellis.mesh @m = <["i"=4]>
func.func @main(%x: tensor<16xf16>) -> (tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>) {
  %r:4 = spmd.shard_map @m in_specs = [[{"i"}]] out_specs = [[{}], [{}], [{}], [{"i"}]] (%x) : (tensor<16xf16>) -> (tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>) {
  ^bb0(%b: tensor<4xf16>):
    %s = spmd.psum %b over ["i"] : tensor<4xf16>
    %hi = spmd.pmax %b over ["i"] : tensor<4xf16>
    %lo = spmd.pmin %b over ["i"] : tensor<4xf16>
    %rs = spmd.psum_scatter %b over ["i"] dim 0 tiled : tensor<4xf16> -> tensor<1xf16>
    spmd.yield %s, %hi, %lo, %rs : tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<1xf16>
  }
  return %r#0, %r#1, %r#2, %r#3 : tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>
}
