// RUN: trellis-opt %s --split-input-file --verify-diagnostics --trellis-partition

trellis.mesh @m = <["x"=2]>
func.func @while_loop(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<8xf32> {
  // expected-error @below {{'scf.while' op has regions the partitioner does not know how to partition}}
  %r = scf.while (%v = %a) : (tensor<8xf32>) -> tensor<8xf32> {
    %c = arith.constant true
    scf.condition(%c) %v : tensor<8xf32>
  } do {
  ^bb0(%v: tensor<8xf32>):
    scf.yield %v : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

trellis.mesh @m = <["x"=2]>
// expected-error @below {{argument #1 is not a ranked tensor; the partitioner takes tensors}}
func.func @scalar_arg(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}, %s: f32) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

trellis.mesh @m = <["x"=2]>
trellis.mesh @n = <["y"=2]>
// expected-error @below {{uses shardings over more than one mesh}}
func.func @two_meshes(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>},
                      %b: tensor<8xf32> {trellis.sharding = #trellis.sharding<@n, [{"y"}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

trellis.mesh @m = <["x"=2]>
// expected-error @below {{has several blocks; the partitioner takes structured control flow (scf) only}}
func.func @blocks(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<8xf32> {
  cf.br ^bb1
^bb1:
  return %a : tensor<8xf32>
}

// -----

trellis.mesh @m = <["x"=2]>
trellis.mesh @n = <["x"=2]>
func.func @map_other_mesh(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<8xf32> {
  // expected-error @below {{uses mesh @n, but the function is partitioned over @m}}
  %r = spmd.shard_map @n in_specs = [[{"x"}]] out_specs = [[{"x"}]] (%a) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<4xf32>):
    spmd.yield %b : tensor<4xf32>
  }
  return %r : tensor<8xf32>
}

// -----

trellis.mesh @m = <["x"=2]>
func.func @scalar_result(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> f32 {
  %c = arith.constant 0 : index
  %e = tensor.extract %a[%c] : tensor<8xf32>
  // expected-error @below {{result #0 is not a ranked tensor; the partitioner takes tensors}}
  return %e : f32
}

// -----

trellis.mesh @m = <["x"=2]>
func.func private @callee(%a: tensor<8xf32>) -> tensor<8xf32>
func.func @call(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<8xf32> {
  // expected-error @below {{calls a function on tensors; the partitioner works within one function, so inline calls first}}
  %r = func.call @callee(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
