// Fully sharded data parallel: activations split over the batch, weights
// stored split over their input dimension (gathered before use).
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}]>},
                %w: tensor<32x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}]>})
    -> (tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}]>}) {
  %wg = trellis.sharding_constraint %w to <@mesh, [{}, {}]> : tensor<32x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y = linalg.matmul ins(%x, %wg : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
