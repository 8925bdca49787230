// RUN: trellis-opt %s -split-input-file -verify-diagnostics --trellis-propagate

// Shardings over two meshes in one function: propagation took the first
// mesh it saw and went on; it now stops, as the partitioner does.
trellis.mesh @a = <["x"=2]>
trellis.mesh @b = <["y"=2]>
// expected-error @below {{'func.func' op uses shardings over more than one mesh}}
func.func @two_meshes(%x: tensor<4xf32> {trellis.sharding = #trellis.sharding<@a, [{"x"}]>},
                      %y: tensor<4xf32> {trellis.sharding = #trellis.sharding<@b, [{"y"}]>}) -> tensor<4xf32> {
  %z = arith.addf %x, %y : tensor<4xf32>
  return %z : tensor<4xf32>
}

