// Sharding groups (JAX's shard_alike) and propagation barriers steer auto
// propagation.
// RUN: trellis-opt %s --split-input-file --trellis-propagate --verify-diagnostics | FileCheck %s

trellis.mesh @m = <["x"=2, "y"=4]>

// Two unrelated values in one group get one sharding: %b, which nothing
// relates to %a, is laid out as %a is, and so is what it flows into.
// CHECK-LABEL: func.func @group
// CHECK-SAME: %{{.*}}: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {"y"}]>},
// CHECK-SAME: %{{.*}}: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {"y"}]>})
// CHECK-SAME: -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {"y"}]>},
// CHECK-SAME: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {"y"}]>})
// CHECK: trellis.sharding_group %{{.*}} group_id = 3
func.func @group(%a: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {"y"}]>},
                 %b: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %a2 = arith.addf %a, %a : tensor<8x16xf32>
  %b2 = arith.mulf %b, %b : tensor<8x16xf32>
  trellis.sharding_group %a2 group_id = 3 : tensor<8x16xf32>
  trellis.sharding_group %b2 group_id = 3 : tensor<8x16xf32>
  return %a2, %b2 : tensor<8x16xf32>, tensor<8x16xf32>
}

// Without the group, %b stays replicated.
// CHECK-LABEL: func.func @no_group
// CHECK-SAME: %{{.*}}: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {"y"}]>},
// CHECK-SAME: %{{.*}}: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {}]>})
func.func @no_group(%a: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {"y"}]>},
                    %b: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %a2 = arith.addf %a, %a : tensor<8x16xf32>
  %b2 = arith.mulf %b, %b : tensor<8x16xf32>
  return %a2, %b2 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

trellis.mesh @m = <["x"=2, "y"=4]>

// Barriers: "forward" lets shardings cross from the operand to the
// result only, "backward" from the result to the operand only, "none"
// neither. Each case is run with an argument split over rows and an
// unsharded result, and with an unsharded argument and a result split
// over columns.
// CHECK-LABEL: func.func @forward_rows
// CHECK: trellis.propagation_barrier %{{.*}} allowed_direction = "forward" {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>}
// CHECK: arith.negf %{{.*}} {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>}
func.func @forward_rows(%a: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>})
    -> tensor<8x16xf32> {
  %b = trellis.propagation_barrier %a allowed_direction = "forward" : tensor<8x16xf32>
  %c = arith.negf %b : tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}
// The result's columns stop at the barrier: the argument stays whole.
// CHECK-LABEL: func.func @forward_columns
// CHECK-SAME: (%{{.*}}: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {}]>})
// CHECK: trellis.propagation_barrier %{{.*}} allowed_direction = "forward" {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>}
func.func @forward_columns(%a: tensor<8x16xf32>)
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>}) {
  %b = trellis.propagation_barrier %a allowed_direction = "forward" : tensor<8x16xf32>
  %c = arith.negf %b : tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @backward_rows
// CHECK: trellis.propagation_barrier %{{.*}} allowed_direction = "backward" {trellis.sharding = #trellis.sharding<@m, [{}, {}]>}
// CHECK: arith.negf %{{.*}} {trellis.sharding = #trellis.sharding<@m, [{}, {}]>}
func.func @backward_rows(%a: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>})
    -> tensor<8x16xf32> {
  %b = trellis.propagation_barrier %a allowed_direction = "backward" : tensor<8x16xf32>
  %c = arith.negf %b : tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @backward_columns
// CHECK-SAME: (%{{.*}}: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>})
func.func @backward_columns(%a: tensor<8x16xf32>)
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>}) {
  %b = trellis.propagation_barrier %a allowed_direction = "backward" : tensor<8x16xf32>
  %c = arith.negf %b : tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @none_rows
// CHECK: arith.negf %{{.*}} {trellis.sharding = #trellis.sharding<@m, [{}, {}]>}
func.func @none_rows(%a: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>})
    -> tensor<8x16xf32> {
  %b = trellis.propagation_barrier %a allowed_direction = "none" : tensor<8x16xf32>
  %c = arith.negf %b : tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @none_columns
// CHECK-SAME: (%{{.*}}: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {}]>})
func.func @none_columns(%a: tensor<8x16xf32>)
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>}) {
  %b = trellis.propagation_barrier %a allowed_direction = "none" : tensor<8x16xf32>
  %c = arith.negf %b : tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}

// -----

trellis.mesh @m = <["x"=2]>

func.func @group_shapes(%a: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>},
                        %b: tensor<16x8xf32>) {
  // expected-note @below {{the group's first value}}
  trellis.sharding_group %a group_id = 0 : tensor<8x16xf32>
  // expected-error @below {{puts a value of type 'tensor<16x8xf32>' in sharding group 0 with one of type 'tensor<8x16xf32>'; the values of a group must have one shape}}
  trellis.sharding_group %b group_id = 0 : tensor<16x8xf32>
  return
}
