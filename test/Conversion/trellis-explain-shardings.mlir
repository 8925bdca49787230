// trellis-explain-shardings: every value says where its sharding came
// from, and every reshard the partitioner would insert is reported with
// its layouts, cost and the two shardings that met there.
// RUN: trellis-opt %s --split-input-file --trellis-explain-shardings | FileCheck %s
// The corpus's attention block on (2,4): one reshard, the output
// projection's partial sums reduced for the result.
// RUN: sed -e 's/\$MESH/<["x"=2, "y"=4]>/' -e 's/\$0/"x"/g' -e 's/\$1/"y"/g' %S/Partition/corpus/attention_heads.mlir | trellis-opt --trellis-explain-shardings -o /dev/null | FileCheck %s --check-prefix=ATTN

// ATTN: // reshards @main (mesh @mesh, 8 devices)
// ATTN-NEXT: //   linalg.generic at <stdin>:{{[0-9]+}}:{{[0-9]+}}: [{"y"}, {}, {}] unreduced {"x"} -> [{"y"}, {}, {}] for result #0: spmd.psum, 4096 B per device
// ATTN-NEXT: //     has:    dim 0 over y: argument #0 through 6 ops (last: linalg.generic at <stdin>:{{[0-9]+}}:{{[0-9]+}}); dim 1 whole; dim 2 whole
// ATTN-NEXT: //     wanted: the sharding of result #0
// ATTN-NEXT: //   total: 1 reshard, 4096 B per device

trellis.mesh @m = <["x"=4]>

// A conflict: the rows of %a and the columns of %b meet at the sum
// (equal users, equal sizes: program order, the rows win) and %b moves;
// the result is wanted over columns, so the exp is computed over columns
// and the sum moves to it.
// CHECK: // reshards @conflict (mesh @m, 4 devices)
// CHECK-NEXT: //   argument #1: [{}, {"x"}] -> [{"x"}, {}] for arith.addf at trellis-explain-shardings.mlir:[[ADD:[0-9]+]]:8: spmd.all_to_all, 384 B per device
// CHECK-NEXT: //     has:    dim 0 whole; dim 1 over x: argument #1 (given)
// CHECK-NEXT: //     wanted: dim 0 over x: argument #0 through 1 op (last: arith.addf at trellis-explain-shardings.mlir:[[ADD]]:8); dim 1 whole
// CHECK-NEXT: //   arith.addf at trellis-explain-shardings.mlir:[[ADD]]:8: [{"x"}, {}] -> [{}, {"x"}] for math.exp at trellis-explain-shardings.mlir:{{[0-9]+}}:8: spmd.all_to_all, 384 B per device
// CHECK-NEXT: //     has:    dim 0 over x: argument #0 through 1 op (last: arith.addf at trellis-explain-shardings.mlir:[[ADD]]:8); dim 1 whole
// CHECK-NEXT: //     wanted: dim 0 whole; dim 1 over x: result #0 (given)
// CHECK-NEXT: //   total: 2 reshards, 768 B per device
// The module left is the global one, annotated.
// CHECK-LABEL: func.func @conflict
// CHECK-SAME: trellis.sharding_origin = "dim 0 over x: argument #0 (given); dim 1 whole"
// CHECK: arith.addf {{.*}}trellis.sharding_origin = "dim 0 over x: argument #0 through 1 op
func.func @conflict(%a: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>},
                    %b: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>})
    -> (tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>}) {
  %c = arith.addf %a, %b : tensor<16x32xf32>
  %d = math.exp %c : tensor<16x32xf32>
  return %d : tensor<16x32xf32>
}

// -----

trellis.mesh @m = <["x"=4]>

// No conflict, no reshard.
// CHECK: // reshards @agree (mesh @m, 4 devices)
// CHECK-NEXT: //   total: 0 reshards, 0 B per device
func.func @agree(%a: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>})
    -> tensor<16x32xf32> {
  %d = math.exp %a : tensor<16x32xf32>
  return %d : tensor<16x32xf32>
}
