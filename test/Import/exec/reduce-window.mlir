// reduce_window as JAX prints jnp.cumsum (a window the length of the axis,
// padded in front) and 2x2 max pooling with stride 2, on operands split
// over a 2-device mesh, and a sum over windows of 2 elements 2 apart of
// 0..7 dilated by 2 (zeros between) with padding [-1, 1] (the first
// element cut); against values worked out by hand for iota inputs and
// against the unpartitioned program.
// RUN: trellis-run %s --iota --reference 2>&1 | FileCheck %s
// Neither moves data: the cumsum's window runs along the whole dimension
// 1 while dimension 0 is split, and the pooling's stride-2 windows of 2
// lie inside each device's block (they gathered 28 B and 32 B before
// windows of split loops were partitioned).
// RUN: trellis-opt %s --trellis-import-stablehlo --trellis-global-to-manual --trellis-comm-report -o /dev/null | FileCheck %s --check-prefix=BYTES
// BYTES: total: 0 collectives, 0 B per device
// CHECK: out0: float32[2,4]
// CHECK-NEXT: {{\[}}[ 0.  1.  3.  6.]
// CHECK-NEXT:  [ 4.  9. 15. 22.]]
// CHECK: out1: float32[2,2]
// CHECK-NEXT: {{\[}}[ 5.  7.]
// CHECK-NEXT:  [13. 15.]]
// CHECK: out2: float32[13]
// CHECK-NEXT: {{\[}} 0.  3.  0.  5.  0.  7.  0.  9.  0. 11.  0. 13.  0.]
// CHECK-COUNT-3: match
module @jit_f attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%x: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %y: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %z: tensor<8xf32>) -> (tensor<2x4xf32>, tensor<2x2xf32>, tensor<13xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%x, %cst) <{padding = dense<[[0, 0], [3, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 4>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = "stablehlo.reduce_window"(%y, %ninf) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
    }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<2x2xf32>
    %2 = "stablehlo.reduce_window"(%z, %cst) <{base_dilations = array<i64: 2>, padding = dense<[[-1, 1]]> : tensor<1x2xi64>, window_dilations = array<i64: 2>, window_dimensions = array<i64: 2>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>, tensor<f32>) -> tensor<13xf32>
    return %0, %1, %2 : tensor<2x4xf32>, tensor<2x2xf32>, tensor<13xf32>
  }
}
