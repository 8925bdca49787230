// Outer broadcasts: a column vector and a row vector to a matrix.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%c: tensor<16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}]>},
                %r: tensor<32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$1}]>}) -> tensor<16x32xf32> {
  %e1 = tensor.empty() : tensor<16x32xf32>
  %bc = linalg.broadcast ins(%c : tensor<16xf32>) outs(%e1 : tensor<16x32xf32>) dimensions = [1]
  %e2 = tensor.empty() : tensor<16x32xf32>
  %br = linalg.broadcast ins(%r : tensor<32xf32>) outs(%e2 : tensor<16x32xf32>) dimensions = [0]
  %e3 = tensor.empty() : tensor<16x32xf32>
  %m = linalg.mul ins(%bc, %br : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e3 : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %m : tensor<16x32xf32>
}
