// Concatenation along a split dimension and along a replicated one.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}]>},
                %y: tensor<8x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$1}, {}]>},
                %z: tensor<16x4xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}]>})
    -> (tensor<24x8xf32>, tensor<16x12xf32>) {
  %a = tensor.concat dim(0) %x, %y : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<24x8xf32>
  %b = tensor.concat dim(1) %x, %z : (tensor<16x8xf32>, tensor<16x4xf32>) -> tensor<16x12xf32>
  return %a, %b : tensor<24x8xf32>, tensor<16x12xf32>
}
