// linalg.softmax has no built-in sharding rule: it runs on gathered rows.
// Declared row-wise (`ij,ij->ij; whole j`), it runs on each device's rows
// with no communication, and when the rows themselves are split the
// declaration's `whole j` gathers them first. Executed against the
// unpartitioned program (--reference) on random inputs.
// RUN: trellis-opt %s --trellis-global-to-manual --trellis-comm-report -o /dev/null | FileCheck %s
// RUN: trellis-run %s --entry rows --random 1 --reference --quiet | FileCheck %s --check-prefix=EXEC
// RUN: trellis-run %s --entry columns --random 2 --reference --quiet | FileCheck %s --check-prefix=EXEC
// RUN: trellis-run %s --entry undeclared --random 3 --reference --quiet | FileCheck %s --check-prefix=EXEC
// EXEC: reference: out0 (float32[8,16], 4 devices vs 1): match

trellis.mesh @mesh = <["x"=4]>

// CHECK: comm @rows
// CHECK-NEXT: total: 0 collectives, 0 B per device
func.func @rows(%x: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {}]>}) {
  %e = tensor.empty() : tensor<8x16xf32>
  %y = "linalg.softmax"(%x, %e) <{dimension = 1 : i64}> {trellis.rule = "ij,ij->ij; whole j"} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// Split along the softmax's own dimension: gathered (whole j), computed,
// split again at the return.
// CHECK: comm @columns
// CHECK-NEXT: spmd.all_gather over ["x"]: float32[8,4] -> float32[8,16], 384 B
// CHECK-NEXT: total: 1 collective, 384 B per device
func.func @columns(%x: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"x"}]>}) {
  %e = tensor.empty() : tensor<8x16xf32>
  %y = "linalg.softmax"(%x, %e) <{dimension = 1 : i64}> {trellis.rule = "ij,ij->ij; whole j"} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// CHECK: comm @undeclared
// CHECK-NEXT: spmd.all_gather over ["x"]: float32[2,16] -> float32[8,16], 384 B
// CHECK-NEXT: total: 1 collective, 384 B per device
func.func @undeclared(%x: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {}]>}) {
  %e = tensor.empty() : tensor<8x16xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
