// Sharding rules users declare (`trellis.rule`) for ops Trellis has no
// rule for: such an op is partitioned by its declaration (cloned on the
// blocks) instead of running on gathered, replicated operands.
// RUN: trellis-opt %s -allow-unregistered-dialect --split-input-file --trellis-test-print-sharding-rules -o /dev/null 2>&1 | FileCheck %s --check-prefix=RULE
// RUN: trellis-opt %s -allow-unregistered-dialect --split-input-file --trellis-global-to-manual | FileCheck %s
// RUN: trellis-opt %s -allow-unregistered-dialect --split-input-file --trellis-global-to-manual --trellis-comm-report -o /dev/null | FileCheck %s --check-prefix=BYTES

trellis.mesh @mesh = <["x"=2, "y"=4]>

// A library matmul whose contraction is split: local products, one psum.
// RULE: remark: sharding rule: ([i, j], [j, k]) -> ([i, k]) {i=8, j=32, k=16} reduction={j}
// CHECK-LABEL: func.func @library_matmul
// CHECK: %[[P:.*]] = "mylib.matmul"(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NOT: trellis.rule
// CHECK: spmd.psum %[[P]] over ["y"]
// BYTES: comm @library_matmul
// BYTES-NEXT: spmd.psum over ["y"]: float32[4,16] -> float32[4,16], 384 B
// BYTES-NEXT: total: 1 collective, 384 B per device
func.func @library_matmul(%a: tensor<8x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {"y"}]>},
                          %b: tensor<32x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {}]>}) {
  %c = "mylib.matmul"(%a, %b) {trellis.rule = "ik,kj->ij; reduce sum"} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}

// -----

trellis.mesh @mesh = <["x"=2, "y"=4]>

// Without `reduce`, a reduction factor stays whole: the contraction's
// operands are gathered over "y" and the op runs on whole rows and
// columns.
// CHECK-LABEL: func.func @no_combine
// CHECK: spmd.all_gather
// CHECK: "mylib.matmul"(%{{.*}}, %{{.*}}) : (tensor<4x32xf32>, tensor<32x16xf32>) -> tensor<4x16xf32>
// CHECK-NOT: spmd.psum
func.func @no_combine(%a: tensor<8x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {"y"}]>},
                      %b: tensor<32x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {}]>}) {
  %c = "mylib.matmul"(%a, %b) {trellis.rule = "ik,kj->ij"} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}

// -----

trellis.mesh @mesh = <["x"=2, "y"=4]>

// The same op without a rule runs replicated: both operands gathered
// whole (the local op keeps no global sharding).
// CHECK-LABEL: func.func @undeclared
// CHECK-COUNT-3: spmd.all_gather
// CHECK: "mylib.matmul"(%{{.*}}, %{{.*}}) : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
// BYTES: comm @undeclared
// BYTES: total: 3 collectives, 2432 B per device
func.func @undeclared(%a: tensor<8x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {"y"}]>},
                      %b: tensor<32x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {}]>}) {
  %c = "mylib.matmul"(%a, %b) : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}

// -----

trellis.mesh @mesh = <["x"=2, "y"=4]>

// A declared rule propagates like a built-in one: the result takes the
// rows' sharding, the scalar operand holds no factor.
// RULE: remark: sharding rule: ([i, j], []) -> ([i, j]) {i=8, j=16}
// CHECK-LABEL: func.func @propagated
// CHECK: "mylib.scale"(%{{.*}}, %{{.*}}) : (tensor<4x4xf32>, f32) -> tensor<4x4xf32>
// BYTES: comm @propagated
// BYTES-NEXT: total: 0 collectives, 0 B per device
func.func @propagated(%a: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {"y"}]>}, %s: f32)
    -> tensor<8x16xf32> {
  %c = "mylib.scale"(%a, %s) {trellis.rule = "ij->ij"} : (tensor<8x16xf32>, f32) -> tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}
