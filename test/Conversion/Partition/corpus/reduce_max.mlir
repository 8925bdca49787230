// A max reduction over a split dimension (not a sum: gathered first).
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {$0, $1}]>}) -> tensor<16xf32> {
  %ninf = arith.constant -1.0e30 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.reduce ins(%x : tensor<16x32xf32>) outs(%f : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<16xf32>
}
