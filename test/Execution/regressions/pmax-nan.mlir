// pmax/pmin follow arith.maximumf/minimumf: a NaN propagates whichever
// device holds it, and -0.0 < +0.0. The runtime's max was `a < b ? b : a`
// seeded from device 0, so a NaN was lost unless device 0 held it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/pmax_nan.py %t
// RUN: trellis-run %s --input 0=%t/nan_last.npy 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: trellis-run %s --input 0=%t/nan_first.npy 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: trellis-run %s --input 0=%t/nan_middle.npy 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: trellis-run %s --input 0=%t/zeros.npy 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: trellis-run %s --input 0=%t/inf.npy 2>&1 | FileCheck %s --check-prefix=INF
// RUN: trellis-run %s --entry f64 --input 0=%t/nan_last64.npy 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: trellis-run %s --entry bf16 --input 0=%t/nan_last.npy 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: trellis-run %s --entry auto_reduce --input 0=%t/nan_row.npy --reference 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: trellis-run %s --entry auto_maxnum --input 0=%t/nan_row.npy --reference 2>&1 | FileCheck %s --check-prefix=MAXNUM

// NAN: out0: {{.*}}[1]
// NAN-NEXT: [nan]
// NAN: out1: {{.*}}[1]
// NAN-NEXT: [nan]

// ZERO: out0: float32[1]
// ZERO-NEXT: [0.]
// ZERO: out1: float32[1]
// ZERO-NEXT: [-0.]

// INF: out0: float32[1]
// INF-NEXT: [inf]
// INF: out1: float32[1]
// INF-NEXT: [-inf]

// AUTO: out0: float32[2]
// AUTO-NEXT: [3. nan]
// AUTO: reference: out0 (float32[2], 4 devices vs 1): match

// maxnumf drops NaN, so its partial results must not meet in a
// NaN-propagating pmax (they did: [3. nan]).
// MAXNUM: out0: float32[2]
// MAXNUM-NEXT: [3. 3.]
// MAXNUM: reference: out0 (float32[2], 4 devices vs 1): match

trellis.mesh @m = <["a"=4]>
func.func @main(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<1xf32>) {
  %y:2 = spmd.shard_map @m in_specs = [[{"a"}]] out_specs = [[], []] (%x) : (tensor<4xf32>) -> (tensor<1xf32>, tensor<1xf32>) {
  ^bb0(%b: tensor<1xf32>):
    %s = spmd.pmax %b over ["a"] : tensor<1xf32>
    %t = spmd.pmin %b over ["a"] : tensor<1xf32>
    spmd.yield %s, %t : tensor<1xf32>, tensor<1xf32>
  }
  return %y#0, %y#1 : tensor<1xf32>, tensor<1xf32>
}

func.func @f64(%x: tensor<4xf64>) -> (tensor<1xf64>, tensor<1xf64>) {
  %y:2 = spmd.shard_map @m in_specs = [[{"a"}]] out_specs = [[], []] (%x) : (tensor<4xf64>) -> (tensor<1xf64>, tensor<1xf64>) {
  ^bb0(%b: tensor<1xf64>):
    %s = spmd.pmax %b over ["a"] : tensor<1xf64>
    %t = spmd.pmin %b over ["a"] : tensor<1xf64>
    spmd.yield %s, %t : tensor<1xf64>, tensor<1xf64>
  }
  return %y#0, %y#1 : tensor<1xf64>, tensor<1xf64>
}

func.func @bf16(%x: tensor<4xf32>) -> (tensor<1xbf16>, tensor<1xbf16>) {
  %y:2 = spmd.shard_map @m in_specs = [[{"a"}]] out_specs = [[], []] (%x) : (tensor<4xf32>) -> (tensor<1xbf16>, tensor<1xbf16>) {
  ^bb0(%b: tensor<1xf32>):
    %h = arith.truncf %b : tensor<1xf32> to tensor<1xbf16>
    %s = spmd.pmax %h over ["a"] : tensor<1xbf16>
    %t = spmd.pmin %h over ["a"] : tensor<1xbf16>
    spmd.yield %s, %t : tensor<1xbf16>, tensor<1xbf16>
  }
  return %y#0, %y#1 : tensor<1xbf16>, tensor<1xbf16>
}

// Auto mode: a max-reduction over a sharded dimension partitions to a local
// reduce plus pmax.
func.func @auto_reduce(%x: tensor<2x8xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"a"}]>}) -> tensor<2xf32> {
  %init = arith.constant dense<0xFF800000> : tensor<2xf32>
  %r = linalg.reduce ins(%x : tensor<2x8xf32>) outs(%init : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<2xf32>
}

func.func @auto_maxnum(%x: tensor<2x8xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"a"}]>}) -> tensor<2xf32> {
  %init = arith.constant dense<0xFF800000> : tensor<2xf32>
  %r = linalg.reduce ins(%x : tensor<2x8xf32>) outs(%init : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maxnumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<2xf32>
}
