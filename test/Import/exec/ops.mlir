// Every imported op family, executed partitioned on a 2x2 mesh, checked
// against the unpartitioned program (--reference) and against numpy
// (check_ops.py, written from the StableHLO specification).
// RUN: rm -rf %t && trellis-run %s --random 3 --reference --save-inputs --output-dir %t --quiet | FileCheck %s
// RUN: %python %S/check_ops.py %t
// CHECK-COUNT-11: match
module @jit_ops attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func public @main(%x: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>},
                         %y: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>})
      -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x12xf32>, tensor<4x12xi32>, tensor<4x6xf32>,
          tensor<4xf32>, tensor<6xf32>, tensor<4xi32>, tensor<2x2x2xf32>, tensor<6x5xf32>, tensor<4x18xi32>) {
    // out0: logistic, tanh, exp, negate, abs.
    %0 = stablehlo.logistic %x : tensor<4x6xf32>
    %1 = stablehlo.tanh %y : tensor<4x6xf32>
    %2 = stablehlo.add %0, %1 : tensor<4x6xf32>
    %3 = stablehlo.abs %x : tensor<4x6xf32>
    %4 = stablehlo.negate %3 : tensor<4x6xf32>
    %5 = stablehlo.exponential %4 : tensor<4x6xf32>
    %out0 = stablehlo.multiply %2, %5 : tensor<4x6xf32>
    // out1: erf, log_plus_one, sqrt, rsqrt, cbrt, exponential_minus_one,
    // log, sign, power, atan2, sine, cosine, divide, subtract.
    %one = stablehlo.constant dense<1.000000e+00> : tensor<4x6xf32>
    %e = chlo.erf %x : tensor<4x6xf32> -> tensor<4x6xf32>
    %ay = stablehlo.abs %y : tensor<4x6xf32>
    %l1p = stablehlo.log_plus_one %ay : tensor<4x6xf32>
    %sq = stablehlo.sqrt %3 : tensor<4x6xf32>
    %ay1 = stablehlo.add %ay, %one : tensor<4x6xf32>
    %rs = stablehlo.rsqrt %ay1 : tensor<4x6xf32>
    %cb = stablehlo.cbrt %y : tensor<4x6xf32>
    %em1 = stablehlo.exponential_minus_one %x : tensor<4x6xf32>
    %lg = stablehlo.log %ay1 : tensor<4x6xf32>
    %sg = stablehlo.sign %y : tensor<4x6xf32>
    %pw = stablehlo.power %ay1, %x : tensor<4x6xf32>
    %at = stablehlo.atan2 %x, %y : tensor<4x6xf32>
    %sn = stablehlo.sine %x : tensor<4x6xf32>
    %cs = stablehlo.cosine %y : tensor<4x6xf32>
    %t0 = stablehlo.subtract %e, %l1p : tensor<4x6xf32>
    %t1 = stablehlo.multiply %sq, %rs : tensor<4x6xf32>
    %t2 = stablehlo.add %t0, %t1 : tensor<4x6xf32>
    %t3 = stablehlo.add %t2, %cb : tensor<4x6xf32>
    %t4 = stablehlo.add %t3, %em1 : tensor<4x6xf32>
    %t5 = stablehlo.divide %lg, %ay1 : tensor<4x6xf32>
    %t6 = stablehlo.add %t4, %t5 : tensor<4x6xf32>
    %t7 = stablehlo.multiply %sg, %pw : tensor<4x6xf32>
    %t8 = stablehlo.add %t6, %t7 : tensor<4x6xf32>
    %t9 = stablehlo.add %at, %sn : tensor<4x6xf32>
    %t10 = stablehlo.subtract %t9, %cs : tensor<4x6xf32>
    %out1 = stablehlo.add %t8, %t10 : tensor<4x6xf32>
    // out2: rounding of 4x (ties happen: x is a multiple of 2^-53).
    %four = stablehlo.constant dense<4.000000e+00> : tensor<4x6xf32>
    %x4 = stablehlo.multiply %x, %four : tensor<4x6xf32>
    %re = stablehlo.round_nearest_even %x4 : tensor<4x6xf32>
    %ra = stablehlo.round_nearest_afz %x4 : tensor<4x6xf32>
    %fl = stablehlo.floor %x4 : tensor<4x6xf32>
    %ce = stablehlo.ceil %x4 : tensor<4x6xf32>
    %r2a = stablehlo.add %re, %fl : tensor<4x6xf32>
    %r2b = stablehlo.subtract %ra, %ce : tensor<4x6xf32>
    %out2 = stablehlo.concatenate %r2a, %r2b, dim = 1 : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x12xf32>
    // out3: integer division and remainder by zero and of MIN by -1.
    %io = stablehlo.iota dim = 1 : tensor<4x6xi32>
    %iz = stablehlo.iota dim = 0 : tensor<4x6xi32>
    %two = stablehlo.constant dense<2> : tensor<4x6xi32>
    %den = stablehlo.subtract %io, %two : tensor<4x6xi32>
    %xi = stablehlo.convert %x4 : (tensor<4x6xf32>) -> tensor<4x6xi32>
    %min = stablehlo.constant dense<-2147483648> : tensor<4x6xi32>
    %zero = stablehlo.constant dense<0> : tensor<4x6xi32>
    %row0 = stablehlo.compare  EQ, %iz, %zero,  SIGNED : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x6xi1>
    %num = stablehlo.select %row0, %min, %xi : tensor<4x6xi1>, tensor<4x6xi32>
    %q = stablehlo.divide %num, %den : tensor<4x6xi32>
    %r = stablehlo.remainder %num, %den : tensor<4x6xi32>
    %out3 = stablehlo.concatenate %q, %r, dim = 1 : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x12xi32>
    // out4: compare, select, clamp with scalar bounds, maximum, minimum.
    %gt = stablehlo.compare  GT, %x, %y,  FLOAT : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %sel = stablehlo.select %gt, %x, %y : tensor<4x6xi1>, tensor<4x6xf32>
    %lo = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %hi = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %cl = stablehlo.clamp %lo, %sel, %hi : (tensor<f32>, tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
    %mx = stablehlo.maximum %x, %y : tensor<4x6xf32>
    %mn = stablehlo.minimum %x, %y : tensor<4x6xf32>
    %mm = stablehlo.subtract %mx, %mn : tensor<4x6xf32>
    %out4 = stablehlo.add %cl, %mm : tensor<4x6xf32>
    // out5, out6: sum over rows, max over columns.
    %c0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %out5 = stablehlo.reduce(%x init: %c0) applies stablehlo.add across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %out6 = stablehlo.reduce(%y init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
    // out7: argmax per row (jnp.argmax's reduce: first index on ties).
    %ci = stablehlo.constant dense<0> : tensor<i32>
    %am:2 = stablehlo.reduce(%x init: %ninf), (%io init: %ci) across dimensions = [1] : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
     reducer(%a: tensor<f32>, %b: tensor<f32>) (%ia: tensor<i32>, %ib: tensor<i32>)  {
      %g = stablehlo.compare  GT, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %eq = stablehlo.compare  EQ, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %lt = stablehlo.compare  LT, %ia, %ib,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %tie = stablehlo.and %eq, %lt : tensor<i1>
      %keep = stablehlo.or %g, %tie : tensor<i1>
      %v = stablehlo.select %keep, %a, %b : tensor<i1>, tensor<f32>
      %w = stablehlo.select %keep, %ia, %ib : tensor<i1>, tensor<i32>
      stablehlo.return %v, %w : tensor<f32>, tensor<i32>
    }
    // out8: batched dot_general after reshapes.
    %xr = stablehlo.reshape %x : (tensor<4x6xf32>) -> tensor<2x2x6xf32>
    %yr = stablehlo.reshape %y : (tensor<4x6xf32>) -> tensor<2x6x2xf32>
    %out8 = stablehlo.dot_general %xr, %yr, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x2x6xf32>, tensor<2x6x2xf32>) -> tensor<2x2x2xf32>
    // out9: transpose, reverse, slice, pad, broadcast_in_dim, iota, convert.
    %tx = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
    %rx = stablehlo.reverse %tx, dims = [0] : tensor<6x4xf32>
    %sx = stablehlo.slice %rx [0:6, 1:4:2] : (tensor<6x4xf32>) -> tensor<6x2xf32>
    %pv = stablehlo.constant dense<7.000000e+00> : tensor<f32>
    %px = stablehlo.pad %sx, %pv, low = [0, 1], high = [0, 2], interior = [0, 0] : (tensor<6x2xf32>, tensor<f32>) -> tensor<6x5xf32>
    %it = stablehlo.iota dim = 0 : tensor<6xf32>
    %bt = stablehlo.broadcast_in_dim %it, dims = [0] : (tensor<6xf32>) -> tensor<6x5xf32>
    %out9 = stablehlo.add %px, %bt : tensor<6x5xf32>
    // out10: bit operations and conversions on integers.
    %sh = stablehlo.constant dense<[[0, 1, 31, 32, 33, -1]]> : tensor<1x6xi32>
    %shb = stablehlo.broadcast_in_dim %sh, dims = [0, 1] : (tensor<1x6xi32>) -> tensor<4x6xi32>
    %shl = stablehlo.shift_left %xi, %shb : tensor<4x6xi32>
    %sra = stablehlo.shift_right_arithmetic %xi, %shb : tensor<4x6xi32>
    %srl = stablehlo.shift_right_logical %xi, %shb : tensor<4x6xi32>
    %bits = stablehlo.xor %shl, %srl : tensor<4x6xi32>
    %notx = stablehlo.not %xi : tensor<4x6xi32>
    %band = stablehlo.and %notx, %io : tensor<4x6xi32>
    %bor = stablehlo.or %band, %iz : tensor<4x6xi32>
    %nz = stablehlo.convert %x4 : (tensor<4x6xf32>) -> tensor<4x6xi1>
    %nzi = stablehlo.convert %nz : (tensor<4x6xi1>) -> tensor<4x6xi32>
    %bf = stablehlo.convert %x : (tensor<4x6xf32>) -> tensor<4x6xbf16>
    %bff = stablehlo.convert %bf : (tensor<4x6xbf16>) -> tensor<4x6xf32>
    %k = stablehlo.constant dense<1.000000e+03> : tensor<4x6xf32>
    %bfk = stablehlo.multiply %bff, %k : tensor<4x6xf32>
    %bfi = stablehlo.convert %bfk : (tensor<4x6xf32>) -> tensor<4x6xi32>
    %s1 = stablehlo.add %bor, %nzi : tensor<4x6xi32>
    %s2 = stablehlo.add %sra, %bfi : tensor<4x6xi32>
    %out10 = stablehlo.concatenate %bits, %s1, %s2, dim = 1 : (tensor<4x6xi32>, tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x18xi32>
    return %out0, %out1, %out2, %out3, %out4, %out5, %out6, %am#1, %out8, %out9, %out10
        : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x12xf32>, tensor<4x12xi32>, tensor<4x6xf32>,
          tensor<4xf32>, tensor<6xf32>, tensor<4xi32>, tensor<2x2x2xf32>, tensor<6x5xf32>, tensor<4x18xi32>
  }
}
