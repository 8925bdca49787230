// Sub-axes (`"x":(2)4`, a part of a mesh axis) in shardings, specs and
// types: they print as written and survive a round trip.
// RUN: trellis-opt %s | FileCheck %s
// RUN: trellis-opt %s | trellis-opt | FileCheck %s
// RUN: trellis-opt %s --trellis-print-types -o /dev/null | FileCheck %s --check-prefix=TYPES

trellis.mesh @m = <["x"=8, "y"=2]>

// CHECK-LABEL: func.func @attrs
// CHECK-SAME: #trellis.sharding<@m, [{"x":(1)2}, {"x":(2)4, "y"}]>
// CHECK-SAME: #trellis.sharding<@m, [{"x":(1)4, ?}p0, {}], replicated = {"x":(4)2}>
func.func @attrs(
    %a: tensor<2x8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x":(1)2}, {"x":(2)4, "y"}]>},
    %b: tensor<4x4xf32> {trellis.sharding = #trellis.sharding<@m, [{"x":(1)4, ?}p0, {}], replicated = {"x":(4)2}>})
    -> tensor<2x8xf32> {
  // CHECK: trellis.sharding_constraint %{{.*}} to <@m, [{"x":(2)2}, {"x":(4)2}]>
  %c = trellis.sharding_constraint %a to <@m, [{"x":(2)2}, {"x":(4)2}]> : tensor<2x8xf32>
  return %c : tensor<2x8xf32>
}

// In a type (explicit mode).
trellis.mesh @e = <["x"=4], types = [explicit]>
// CHECK-LABEL: func.func private @typed
// CHECK-SAME: tensor<2x2xf32, #trellis.sharding<@e, [{"x":(1)2}, {"x":(2)2}]>>
func.func private @typed(tensor<2x2xf32, #trellis.sharding<@e, [{"x":(1)2}, {"x":(2)2}]>>)

// JAX-style types name a sub-axis as `x:(1)2`.
// TYPES-LABEL: @split
// TYPES-NEXT: %arg0 : float32[4@x]
// TYPES-NEXT: %expanded = tensor.expand_shape : float32[2@x:(1)2,2@x:(2)2]
func.func @split(%a: tensor<4xf32, #trellis.sharding<@e, [{"x"}]>>) -> tensor<2x2xf32, #trellis.sharding<@e, [{"x":(1)2}, {"x":(2)2}]>> {
  %0 = tensor.expand_shape %a [[0, 1]] output_shape [2, 2] : tensor<4xf32, #trellis.sharding<@e, [{"x"}]>> into tensor<2x2xf32, #trellis.sharding<@e, [{"x":(1)2}, {"x":(2)2}]>>
  return %0 : tensor<2x2xf32, #trellis.sharding<@e, [{"x":(1)2}, {"x":(2)2}]>>
}
