// RUN: trellis-opt -allow-unregistered-dialect %s | FileCheck %s
// RUN: trellis-opt -allow-unregistered-dialect %s | trellis-opt -allow-unregistered-dialect | FileCheck %s
// RUN: trellis-opt -allow-unregistered-dialect -mlir-print-op-generic %s | trellis-opt -allow-unregistered-dialect | FileCheck %s

// CHECK: trellis.mesh @mesh = <["i"=4, "j"=2]>
trellis.mesh @mesh = <["i"=4, "j"=2]>
// CHECK: trellis.mesh @emesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
trellis.mesh @emesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
// CHECK: trellis.mesh @amesh = <["X"=2, "Y"=4]>
trellis.mesh @amesh = <["X"=2, "Y"=4], types = [auto, auto]>
// CHECK: trellis.mesh @mixed = <["a"=2, "b"=2, "c"=2], types = [auto, explicit, manual]>
trellis.mesh @mixed = <["a"=2, "b"=2, "c"=2], types = [auto, explicit, manual]>
// CHECK: trellis.mesh @ring = <["x"=4], devices = [0, 2, 3, 1]>
trellis.mesh @ring = <["x"=4], devices = [0, 2, 3, 1]>
// CHECK: trellis.mesh @single = <["d"=1]> {note = "attr-dict"}
trellis.mesh @single = <["d"=1]> {note = "attr-dict"}

// Shardings as tensor encodings (JAX's `i32[4@X,2]`).
// CHECK-LABEL: func @encodings
// CHECK-SAME: tensor<4x2xi32, #trellis.sharding<@emesh, [{"X"}, {}]>>
// CHECK-SAME: tensor<8x8xf32, #trellis.sharding<@emesh, [{"X", "Y"}, {}]>>
// CHECK-SAME: tensor<8x8xf32, #trellis.sharding<@emesh, [{}, {}], replicated = {"X"}, unreduced = {"Y"}>>
func.func @encodings(
    %a: tensor<4x2xi32, #trellis.sharding<@emesh, [{"X"}, {}]>>,
    %b: tensor<8x8xf32, #trellis.sharding<@emesh, [{"X", "Y"}, {}]>>,
    %c: tensor<8x8xf32, #trellis.sharding<@emesh, [{}, {}], replicated = {"X"}, unreduced = {"Y"}>>) {
  return
}

// Auto-mode annotations: discardable attributes on arguments and results,
// open dimensions (`?`) and standalone attributes.
// CHECK-LABEL: func @annotations
// CHECK-SAME: {trellis.sharding = #trellis.sharding<@amesh, [{"X", ?}, {?}]>}
// CHECK-SAME: -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@amesh, [{"X"}, {}]>})
func.func @annotations(%x: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@amesh, [{"X", ?}, {?}]>})
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@amesh, [{"X"}, {}]>}) {
  // CHECK: math.exp %{{.*}} {trellis.sharding = #trellis.sharding<@amesh, [{"X"}, {"Y"}]>}
  %e = math.exp %x {trellis.sharding = #trellis.sharding<@amesh, [{"X"}, {"Y"}]>} : tensor<8x16xf32>
  // CHECK: "test.pair"() {dim = #trellis.dim<{"i", ?}>, spec = #trellis.spec<[{"i"}, {}]>, trellis.sharding = [#trellis.sharding<@amesh, [{}]>, #trellis.sharding<@amesh, [{"Y"}]>]}
  %p:2 = "test.pair"() {trellis.sharding = [#trellis.sharding<@amesh, [{}]>, #trellis.sharding<@amesh, [{"Y"}]>],
                        spec = #trellis.spec<[{"i"}, {}]>, dim = #trellis.dim<{"i", ?}>}
      : () -> (tensor<4xf32>, tensor<8xf32>)
  return %e : tensor<8x16xf32>
}

// CHECK-LABEL: func @reshard_and_constraint
func.func @reshard_and_constraint(%x: tensor<8x8xf32, #trellis.sharding<@emesh, [{"X"}, {}]>>,
                                  %y: tensor<8x16xf32>) {
  // CHECK: trellis.reshard %{{.*}} : tensor<8x8xf32, #trellis.sharding<@emesh, [{"X"}, {}]>> -> tensor<8x8xf32, #trellis.sharding<@emesh, [{}, {"X"}]>>
  %r = trellis.reshard %x : tensor<8x8xf32, #trellis.sharding<@emesh, [{"X"}, {}]>>
                         -> tensor<8x8xf32, #trellis.sharding<@emesh, [{}, {"X"}]>>
  // CHECK: trellis.reshard %{{.*}} : tensor<8x8xf32, #trellis.sharding<@emesh, [{"X"}, {}]>> -> tensor<8x8xf32>
  %g = trellis.reshard %x : tensor<8x8xf32, #trellis.sharding<@emesh, [{"X"}, {}]>> -> tensor<8x8xf32>
  // CHECK: trellis.sharding_constraint %{{.*}} to <@amesh, [{"X"}, {"Y"}]> : tensor<8x16xf32>
  %c = trellis.sharding_constraint %y to <@amesh, [{"X"}, {"Y"}]> : tensor<8x16xf32>
  return
}

// Seed 002: `g` runs with "X" auto inside; types inside show only "Y".
// CHECK-LABEL: func @auto_axes
func.func @auto_axes(%x: tensor<4x4xf32, #trellis.sharding<@emesh, [{"X"}, {"Y"}]>>)
    -> tensor<4x4xf32, #trellis.sharding<@emesh, [{"X"}, {"Y"}]>> {
  // CHECK: trellis.auto_axes @emesh ["X"](%{{.*}}) : (tensor<4x4xf32, #trellis.sharding<@emesh, [{"X"}, {"Y"}]>>) -> tensor<4x4xf32, #trellis.sharding<@emesh, [{"X"}, {"Y"}]>>
  // CHECK: ^bb0(%{{.*}}: tensor<4x4xf32, #trellis.sharding<@emesh, [{}, {"Y"}]>>):
  // CHECK: trellis.yield %{{.*}} : tensor<4x4xf32, #trellis.sharding<@emesh, [{}, {"Y"}]>>
  %z = trellis.auto_axes @emesh ["X"] (%x)
      : (tensor<4x4xf32, #trellis.sharding<@emesh, [{"X"}, {"Y"}]>>)
     -> tensor<4x4xf32, #trellis.sharding<@emesh, [{"X"}, {"Y"}]>> {
  ^bb0(%y: tensor<4x4xf32, #trellis.sharding<@emesh, [{}, {"Y"}]>>):
    %two = arith.addf %y, %y : tensor<4x4xf32, #trellis.sharding<@emesh, [{}, {"Y"}]>>
    trellis.yield %two : tensor<4x4xf32, #trellis.sharding<@emesh, [{}, {"Y"}]>>
  }
  return %z : tensor<4x4xf32, #trellis.sharding<@emesh, [{"X"}, {"Y"}]>>
}

// Seed 002: `explicit_g` inside an auto mesh; a fully auto region inside.
// CHECK-LABEL: func @explicit_axes
func.func @explicit_axes(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // CHECK: trellis.explicit_axes @amesh ["X", "Y"](%{{.*}}) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  // CHECK: ^bb0(%{{.*}}: tensor<4x4xf32, #trellis.sharding<@amesh, [{"X"}, {"Y"}]>>):
  %z = trellis.explicit_axes @amesh ["X", "Y"] (%x) : (tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%y: tensor<4x4xf32, #trellis.sharding<@amesh, [{"X"}, {"Y"}]>>):
    // CHECK: trellis.auto_axes @amesh ["Y"]
    %w = trellis.auto_axes @amesh ["Y"] (%y)
        : (tensor<4x4xf32, #trellis.sharding<@amesh, [{"X"}, {"Y"}]>>)
       -> tensor<4x4xf32, #trellis.sharding<@amesh, [{"X"}, {}]>> {
    ^bb0(%v: tensor<4x4xf32, #trellis.sharding<@amesh, [{"X"}, {}]>>):
      trellis.yield %v : tensor<4x4xf32, #trellis.sharding<@amesh, [{"X"}, {}]>>
    }
    trellis.yield %w : tensor<4x4xf32, #trellis.sharding<@amesh, [{"X"}, {}]>>
  }
  return %z : tensor<4x4xf32>
}

// Shardings the partitioner reads may split a dimension unevenly (6 over
// 4 devices, 2 over 8): it pads them. Types may not (invalid.mlir).
// CHECK-LABEL: func.func @uneven
// CHECK-SAME: tensor<6xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"i"}]>}
// CHECK-SAME: -> (tensor<2xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"i", "j"}]>})
// CHECK: trellis.sharding_constraint %{{.*}} to <@mesh, [{"j", "i"}]> : tensor<6xf32>
func.func @uneven(%x: tensor<6xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"i"}]>})
    -> (tensor<2xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"i", "j"}]>}) {
  %c = trellis.sharding_constraint %x to <@mesh, [{"j", "i"}]> : tensor<6xf32>
  %s = tensor.extract_slice %c[0] [2] [1] : tensor<6xf32> to tensor<2xf32>
  return %s : tensor<2xf32>
}
