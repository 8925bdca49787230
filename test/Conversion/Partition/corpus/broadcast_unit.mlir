// Seed 002's broadcasting add: [16,1] + [1,32] through unit dimensions.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x1xi32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}]>},
                %y: tensor<1x32xi32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {$1}]>}) -> tensor<16x32xi32> {
  %init = tensor.empty() : tensor<16x32xi32>
  %ans = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 0)>,
                                          affine_map<(i, j) -> (0, j)>,
                                          affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<16x1xi32>, tensor<1x32xi32>) outs(%init : tensor<16x32xi32>) {
  ^bb0(%a: i32, %b: i32, %u: i32):
    %s = arith.addi %a, %b : i32
    linalg.yield %s : i32
  } -> tensor<16x32xi32>
  return %ans : tensor<16x32xi32>
}
