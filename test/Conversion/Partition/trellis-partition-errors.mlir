// RUN: trellis-opt %s --split-input-file --verify-diagnostics --trellis-partition

trellis.mesh @m = <["x"=2]>
func.func @execute_region(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<8xf32> {
  // expected-error @below {{'scf.execute_region' op has regions the partitioner does not know how to partition}}
  %r = scf.execute_region -> tensor<8xf32> {
    scf.yield %a : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

trellis.mesh @m = <["x"=2]>
func.func @while_types(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<4xf32> {
  // expected-error @below {{'scf.while' op carries values whose types change between the condition and the body}}
  %r = scf.while (%v = %a) : (tensor<8xf32>) -> tensor<4xf32> {
    %c = arith.constant true
    %s = tensor.extract_slice %v[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
    scf.condition(%c) %s : tensor<4xf32>
  } do {
  ^bb0(%w: tensor<4xf32>):
    %e = tensor.empty() : tensor<8xf32>
    scf.yield %e : tensor<8xf32>
  }
  return %r : tensor<4xf32>
}

// -----

trellis.mesh @m = <["x"=2]>
// expected-error @below {{argument #1 is neither a ranked tensor nor a scalar; the partitioner takes tensors, integers, floats and indices}}
func.func @memref_arg(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}, %s: memref<4xf32>) -> tensor<8xf32> {
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
func.func @vector_result(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> vector<4xf32> {
  %c = arith.constant 0.0 : f32
  %v = vector.broadcast %c : f32 to vector<4xf32>
  // expected-error @below {{result #0 is neither a ranked tensor nor a scalar; the partitioner takes tensors, integers, floats and indices}}
  return %v : vector<4xf32>
}

// -----

trellis.mesh @m = <["x"=2]>
func.func private @callee(%a: tensor<8xf32>) -> tensor<8xf32>
func.func @call(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<8xf32> {
  // expected-error @below {{calls a function on tensors; the partitioner works within one function, so inline calls first}}
  %r = func.call @callee(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// An embedded shard_map is checked for device variance before its body is
// merged into the partitioner's own (unchecked) shard_map: this one returned
// device 0's value with exit code 0.
trellis.mesh @m = <["a"=2]>
func.func @embedded_unsafe_out_specs(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @below {{'spmd.shard_map' op output #0 may vary over mesh axis "a", but out_specs[0] does not mention it}}
  %y = spmd.shard_map @m in_specs = [[{}]] out_specs = [[{}]] (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%b: tensor<2xf32>):
    %i = spmd.axis_index over ["a"] : i32
    %f = arith.sitofp %i : i32 to f32
    %t = tensor.splat %f : tensor<2xf32>
    // expected-note @below {{output #0 is computed here}}
    %s = arith.addf %b, %t : tensor<2xf32>
    spmd.yield %s : tensor<2xf32>
  }
  %z = arith.negf %y : tensor<2xf32>
  return %z : tensor<2xf32>
}

// -----

// A region cloned whole may not hold what only the partitioner understands.
trellis.mesh @m = <["x"=2]>
func.func @reshard_in_cloned_region(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<8xf32> {
  %i = arith.constant 0 : index
  // expected-error @below {{'scf.index_switch' op has regions the partitioner clones whole, so it cannot partition}}
  %f = scf.index_switch %i -> f32
  case 0 {
    // expected-note @below {{'trellis.sharding_constraint' here}}
    %c = trellis.sharding_constraint %a to <@m, [{}]> : tensor<8xf32>
    %z = arith.constant 0 : index
    %v = tensor.extract %c[%z] : tensor<8xf32>
    scf.yield %v : f32
  }
  default {
    %c = arith.constant 2.0 : f32
    scf.yield %c : f32
  }
  %t = tensor.splat %f : tensor<8xf32>
  return %t : tensor<8xf32>
}

// -----

// A partial sum is made by zeroing all but one device: element types
// without a zero the partitioner can build are refused.
trellis.mesh @m = <["b"=2]>
// expected-error @below {{cannot make a value of element type 'complex<f32>' a partial sum (unreduced axes)}}
func.func @complex_partial(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %c = trellis.sharding_constraint %x to <@m, [{}], unreduced = {"b"}> : tensor<4xcomplex<f32>>
  return %c : tensor<4xcomplex<f32>>
}

// -----

// A dimension split unevenly is padded with zeros of its element type;
// complex numbers have none here.
trellis.mesh @m = <["x"=4]>
// expected-error @below {{cannot pad a dimension of element type 'complex<f32>' to split it unevenly; shard it evenly}}
func.func @uneven_complex(%a: tensor<6xcomplex<f32>> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> (tensor<6xcomplex<f32>> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) {
  %e = tensor.empty() : tensor<6xcomplex<f32>>
  %b = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a : tensor<6xcomplex<f32>>) outs(%e : tensor<6xcomplex<f32>>) {
  ^bb0(%x: complex<f32>, %o: complex<f32>):
    %s = complex.add %x, %x : complex<f32>
    linalg.yield %s : complex<f32>
  } -> tensor<6xcomplex<f32>>
  return %b : tensor<6xcomplex<f32>>
}

// -----

// Sub-axes must nest: parts starting at 2 and at 3 of one axis of 12 are
// not both whole parts of one split of it.
trellis.mesh @m = <["x"=12]>
// expected-error @below {{the sub-axes of mesh axis "x" do not nest: parts starting at pre-sizes 2 and 3 cannot both be whole parts of one split of the axis}}
func.func @f(%a: tensor<2x12xf32> {trellis.sharding = #trellis.sharding<@m, [{"x":(1)2}, {}]>},
             %b: tensor<3x12xf32> {trellis.sharding = #trellis.sharding<@m, [{"x":(1)3}, {}]>}) -> tensor<2x12xf32> {
  return %a : tensor<2x12xf32>
}

// -----

// Manual code over an axis the user split into sub-axes.
trellis.mesh @m = <["x"=8]>
func.func @f(%a: tensor<2x4xf32> {trellis.sharding = #trellis.sharding<@m, [{"x":(1)2}, {"x":(2)4}]>}, %b: tensor<8xf32>) -> (tensor<2x4xf32>, tensor<8xf32>) {
  // expected-error @below {{names mesh axis "x", which shardings split into sub-axes; partitioning sub-axes beside manual code or axis-type regions over the same axis is not supported yet}}
  %1 = spmd.shard_map @m in_specs = [[{"x"}]] out_specs = [[{"x"}]] (%b) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%arg1: tensor<1xf32>):
    spmd.yield %arg1 : tensor<1xf32>
  }
  return %a, %1 : tensor<2x4xf32>, tensor<8xf32>
}

// -----

trellis.mesh @m = <["x"=8]>
trellis.mesh @n = <["x"=8]>
// expected-error @below {{sub-axes ("x":(1)2) are partitioned only in a module with one mesh}}
func.func @f(%a: tensor<2x4xf32> {trellis.sharding = #trellis.sharding<@m, [{"x":(1)2}, {"x":(2)4}]>}) -> tensor<2x4xf32> {
  return %a : tensor<2x4xf32>
}

// -----

// A slice whose last index wraps around int64 verifies; the partitioner has
// no rule for it and would leave it whole, reading outside its tensor.
trellis.mesh @m = <["x"=4]>
func.func @slice_wraps(%a: tensor<64xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<4xf32> {
  // expected-error @below {{dimension 0 of the slice (offset 40, size 4, stride 9223372036854775807) reaches outside the tensor it slices}}
  %r = tensor.extract_slice %a[40] [4] [9223372036854775807] : tensor<64xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

trellis.mesh @m = <["x"=4]>
func.func @insert_wraps(%a: tensor<4x8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>}, %b: tensor<4x5xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{dimension 1 of the slice (offset 3, size 5, stride 4611686018427387904) reaches outside the tensor it slices}}
  %r = tensor.insert_slice %b into %a[0, 3] [4, 5] [1, 4611686018427387904] : tensor<4x5xf32> into tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Constant operands count as static numbers, and the error shows them.
trellis.mesh @m = <["x"=4]>
func.func @slice_wraps_constant(%a: tensor<64xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<4xf32> {
  %o = arith.constant 40 : index
  %s = arith.constant 9223372036854775807 : index
  // expected-error @below {{dimension 0 of the slice (offset 40, size 4, stride 9223372036854775807) reaches outside the tensor it slices}}
  %r = tensor.extract_slice %a[%o] [4] [%s] : tensor<64xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}
