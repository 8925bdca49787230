// stablehlo.select_and_scatter as JAX prints the max-pool gradient
// (select GE, scatter add, overlapping 3x3 windows with stride 2 and
// padding) on an operand split over a 2-device mesh, and with another
// selector and combiner (the last minimum, scattered with maximum) and
// windows of padding only: against the unpartitioned program and against
// check_select_and_scatter.py, which follows XLA's definition in numpy.
// RUN: rm -rf %t && trellis-run %s --random 7 --reference --save-inputs --output-dir %t --quiet | FileCheck %s
// RUN: %python %S/check_select_and_scatter.py %t
// CHECK-COUNT-3: match
module @jit_pool_grads attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(
      %x: tensor<2x7x7x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}, {}]>},
      %dy: tensor<2x4x4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}, {}]>},
      %y: tensor<5x6xf32>, %s: tensor<4x3xf32>, %dz: tensor<2x3x3x3xf32>)
      -> (tensor<2x7x7x3xf32>, tensor<5x6xf32>, tensor<2x7x7x3xf32>) {
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = "stablehlo.select_and_scatter"(%x, %dy, %zero) <{padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %c : tensor<f32>
    }) : (tensor<2x7x7x3xf32>, tensor<2x4x4x3xf32>, tensor<f32>) -> tensor<2x7x7x3xf32>
    // Select keeps the candidate while it is below the element (LT): the
    // last minimum wins ties (many, %y rounded). Padding [2, 2] on
    // dimension 0 leaves the first window (rows -2, -1) without elements.
    %init = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %r = stablehlo.round_nearest_even %y : tensor<5x6xf32>
    %1 = "stablehlo.select_and_scatter"(%r, %s, %init) <{padding = dense<[[2, 2], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %c : tensor<f32>
    }) : (tensor<5x6xf32>, tensor<4x3xf32>, tensor<f32>) -> tensor<5x6xf32>
    // Every element below the zero the candidate starts as: the first
    // element of a window is taken whatever select says of it.
    %abs = stablehlo.abs %x : tensor<2x7x7x3xf32>
    %n = stablehlo.negate %abs : tensor<2x7x7x3xf32>
    %2 = "stablehlo.select_and_scatter"(%n, %dz, %zero) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %c : tensor<f32>
    }) : (tensor<2x7x7x3xf32>, tensor<2x3x3x3xf32>, tensor<f32>) -> tensor<2x7x7x3xf32>
    return %0, %1, %2 : tensor<2x7x7x3xf32>, tensor<5x6xf32>, tensor<2x7x7x3xf32>
  }
}
