// RUN: trellis-opt %s --split-input-file --trellis-strip-shardings | FileCheck %s

// The unpartitioned program: no sharding attributes or encodings, constants
// retyped, reshards and constraints gone, axis regions inlined.
trellis.mesh @m = <["x"=2, "y"=2], types = [explicit, explicit]>
// CHECK-LABEL: func.func @f(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[S:.*]] = math.sin %arg0 : tensor<4x4xf32>
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<4x4xf32>
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[S]], %[[C]] : tensor<4x4xf32>
// CHECK-NEXT: return %[[M]] : tensor<4x4xf32>
// CHECK-NEXT: }
func.func @f(%a: tensor<4x4xf32, #trellis.sharding<@m, [{"x"}, {"y"}]>>) -> tensor<4x4xf32, #trellis.sharding<@m, [{}, {"y"}]>> {
  %s = math.sin %a : tensor<4x4xf32, #trellis.sharding<@m, [{"x"}, {"y"}]>>
  %r = trellis.reshard %s : tensor<4x4xf32, #trellis.sharding<@m, [{"x"}, {"y"}]>> -> tensor<4x4xf32, #trellis.sharding<@m, [{}, {"y"}]>>
  %z = trellis.auto_axes @m ["x"] (%r) : (tensor<4x4xf32, #trellis.sharding<@m, [{}, {"y"}]>>) -> tensor<4x4xf32, #trellis.sharding<@m, [{}, {"y"}]>> {
  ^bb0(%y: tensor<4x4xf32, #trellis.sharding<@m, [{}, {"y"}]>>):
    %two = arith.constant dense<2.0> : tensor<4x4xf32, #trellis.sharding<@m, [{}, {"y"}]>>
    %p = arith.mulf %y, %two : tensor<4x4xf32, #trellis.sharding<@m, [{}, {"y"}]>>
    trellis.yield %p : tensor<4x4xf32, #trellis.sharding<@m, [{}, {"y"}]>>
  }
  return %z : tensor<4x4xf32, #trellis.sharding<@m, [{}, {"y"}]>>
}

// -----

trellis.mesh @m = <["x"=2]>
// CHECK-LABEL: func.func @g(%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[E:.*]] = math.exp %arg0 : tensor<4xf32>
// CHECK-NEXT: return %[[E]]
func.func @g(%a: tensor<4xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> (tensor<4xf32> {trellis.sharding = #trellis.sharding<@m, [{}]>}) {
  %e = math.exp %a {trellis.sharding = #trellis.sharding<@m, [{"x"}]>} : tensor<4xf32>
  %c = trellis.sharding_constraint %e to <@m, [{}]> : tensor<4xf32>
  return %c : tensor<4xf32>
}
