// The f32 functions trellis-approximate-math approximates, on inputs that
// approximate_math.py writes: %a general ([-20, 20] and special values),
// %e for exp/expm1 (to past overflow), %p positive for log/log2 (and 0,
// negatives, inf, nan), %q for log1p (> -1, and -1, < -1).
func.func @main(%a: tensor<4104xf32>, %e: tensor<4104xf32>,
                %p: tensor<4104xf32>, %q: tensor<4104xf32>)
    -> (tensor<4104xf32>, tensor<4104xf32>, tensor<4104xf32>,
        tensor<4104xf32>, tensor<4104xf32>, tensor<4104xf32>,
        tensor<4104xf32>, tensor<4104xf32>) {
  %0 = math.tanh %a : tensor<4104xf32>
  %1 = math.exp %e : tensor<4104xf32>
  %2 = math.expm1 %e : tensor<4104xf32>
  %3 = math.log %p : tensor<4104xf32>
  %4 = math.log1p %q : tensor<4104xf32>
  %5 = math.log2 %p : tensor<4104xf32>
  %6 = math.erf %a : tensor<4104xf32>
  %7 = math.erfc %a : tensor<4104xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7
      : tensor<4104xf32>, tensor<4104xf32>, tensor<4104xf32>,
        tensor<4104xf32>, tensor<4104xf32>, tensor<4104xf32>,
        tensor<4104xf32>, tensor<4104xf32>
}
