// A 1-D three-point stencil written with shifted slices of a split vector.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0, $1}]>}) -> tensor<62xf32> {
  %l = tensor.extract_slice %x[0] [62] [1] : tensor<64xf32> to tensor<62xf32>
  %c = tensor.extract_slice %x[1] [62] [1] : tensor<64xf32> to tensor<62xf32>
  %r = tensor.extract_slice %x[2] [62] [1] : tensor<64xf32> to tensor<62xf32>
  %s = arith.addf %l, %r : tensor<62xf32>
  %two = arith.constant dense<2.0> : tensor<62xf32>
  %c2 = arith.mulf %c, %two : tensor<62xf32>
  %d = arith.subf %s, %c2 : tensor<62xf32>
  return %d : tensor<62xf32>
}
