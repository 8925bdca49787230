// A loop accumulating a row-sum of a split matrix into a carried vector,
// with the trip count as an argument-independent constant and an index
// dependent scale.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}]>}) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %acc0) -> (tensor<16xf32>) {
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %e2 = tensor.empty() : tensor<16x32xf32>
    %scaled = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                              iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<16x32xf32>) outs(%e2 : tensor<16x32xf32>) {
    ^bb0(%v: f32, %u: f32):
      %m = arith.mulf %v, %fi : f32
      linalg.yield %m : f32
    } -> tensor<16x32xf32>
    %s = linalg.reduce ins(%scaled : tensor<16x32xf32>) outs(%acc : tensor<16xf32>) dimensions = [1]
      (%in: f32, %a: f32) {
        %t = arith.addf %in, %a : f32
        linalg.yield %t : f32
      }
    scf.yield %s : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}
