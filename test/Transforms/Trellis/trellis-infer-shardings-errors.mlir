// RUN: trellis-opt %s --trellis-infer-shardings --split-input-file --verify-diagnostics

// Seed 002: f32[4@X, 4] + f32[4, 4@X] would shard two dimensions over X.
trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @illegal(%x: tensor<4x4xi32, #trellis.sharding<@mesh, [{"X"}, {}]>>,
                   %y: tensor<4x4xi32, #trellis.sharding<@mesh, [{}, {"X"}]>>) -> tensor<4x4xi32> {
  %init = tensor.empty() : tensor<4x4xi32>
  // expected-error @below {{add operation with inputs: i32[4@X,4], i32[4,4@X] produces an illegally sharded result: i32[4@X,4@X]}}
  %r = linalg.add ins(%x, %y : tensor<4x4xi32, #trellis.sharding<@mesh, [{"X"}, {}]>>,
                               tensor<4x4xi32, #trellis.sharding<@mesh, [{}, {"X"}]>>)
                  outs(%init : tensor<4x4xi32>) -> tensor<4x4xi32>
  return %r : tensor<4x4xi32>
}

// -----

// Seed 003: einsum('bd,df->bf', square(In), W) without out_sharding.
trellis.mesh @mesh = <["X"=2, "Y"=2], types = [explicit, explicit]>
func.func @matmul_square(%in: tensor<8x2048xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>,
                         %w: tensor<2048x8192xf32, #trellis.sharding<@mesh, [{"Y"}, {}]>>) -> tensor<8x8192xf32> {
  %e = tensor.empty() : tensor<8x2048xf32>
  %sq = linalg.mul ins(%in, %in : tensor<8x2048xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>,
                                  tensor<8x2048xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>)
                   outs(%e : tensor<8x2048xf32>) -> tensor<8x2048xf32>
  %zero = arith.constant 0.0 : f32
  %oe = tensor.empty() : tensor<8x8192xf32>
  %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x8192xf32>) -> tensor<8x8192xf32>
  // expected-error @below {{Contracting dimensions are sharded and it is ambiguous how the output should be sharded. Please specify the output sharding (give the result type a sharding, or an out_sharding). Got lhs_contracting_spec=('Y',) and rhs_contracting_spec=('Y',)}}
  %out = linalg.matmul ins(%sq, %w : tensor<8x2048xf32>, tensor<2048x8192xf32, #trellis.sharding<@mesh, [{"Y"}, {}]>>)
                       outs(%init : tensor<8x8192xf32>) -> tensor<8x8192xf32>
  return %out : tensor<8x8192xf32>
}

// -----

trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @conflict(%x: tensor<8xf32, #trellis.sharding<@mesh, [{"X"}]>>,
                    %y: tensor<8xf32, #trellis.sharding<@mesh, [{"Y"}]>>) {
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @below {{add operation with inputs: f32[8@X], f32[8@Y] has conflicting shardings for one dimension: ('X',) and ('Y',); reshard an operand (trellis.reshard) so they agree}}
  %r = linalg.add ins(%x, %y : tensor<8xf32, #trellis.sharding<@mesh, [{"X"}]>>, tensor<8xf32, #trellis.sharding<@mesh, [{"Y"}]>>)
                  outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @slice_sharded(%x: tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>) {
  // expected-error @below {{'tensor.extract_slice' op needs dimension 0 of operand #0 (f32[8@X,6]) whole, but it is sharded over ('X',); reshard it to replicated first}}
  %s = tensor.extract_slice %x[2, 0] [4, 6] [1, 1]
      : tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>> to tensor<4x6xf32>
  return
}

// -----

trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @concat_sharded(%x: tensor<8x8xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>) {
  // expected-error @below {{'tensor.concat' op needs dimension 1 of operand #0 (f32[8,8@Y]) whole}}
  %c = tensor.concat dim(1) %x, %x : (tensor<8x8xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>,
                                      tensor<8x8xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>) -> tensor<8x16xf32>
  return
}

// -----

// The reshape rule: splitting a sharded dimension needs an out_sharding.
trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @split_sharded(%x: tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>) {
  // expected-error @below {{reshape from f32[8@X,6] to f32[2,4,6] splits or merges a sharded dimension; give the result type a sharding (an out_sharding) or reshard the operand}}
  %s = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 4, 6]
      : tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>> into tensor<2x4x6xf32>
  return
}

// -----

// Merging a sharded dimension with another needs an out_sharding too.
trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @merge_sharded(%x: tensor<4x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>) {
  // expected-error @below {{reshape from f32[4@X,6] to f32[24] splits or merges a sharded dimension}}
  %m = tensor.collapse_shape %x [[0, 1]] : tensor<4x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>> into tensor<24xf32>
  return
}

// -----

// With an out_sharding the same merge is accepted (the partitioner reshards),
// and the function result takes the type (trellis-infer-shardings.mlir).
trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @merge_with_out_sharding(%x: tensor<4x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>) {
  %m = tensor.collapse_shape %x [[0, 1]] : tensor<4x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>
      into tensor<24xf32, #trellis.sharding<@mesh, [{"X"}]>>
  return
}

// -----

trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @no_rule(%x: tensor<8xf32, #trellis.sharding<@mesh, [{"X"}]>>) {
  // expected-error @below {{'tensor.bitcast' op has no sharding rule, but operand #0 is sharded (f32[8@X]); reshard it to replicated first, or wrap the op in trellis.auto_axes}}
  %b = tensor.bitcast %x : tensor<8xf32, #trellis.sharding<@mesh, [{"X"}]>> to tensor<8xi32>
  return
}

// -----

trellis.mesh @a = <["X"=2], types = [explicit]>
trellis.mesh @b = <["X"=2], types = [explicit]>
func.func @meshes(%x: tensor<8xf32, #trellis.sharding<@a, [{"X"}]>>, %y: tensor<8xf32, #trellis.sharding<@b, [{"X"}]>>) {
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @below {{'linalg.add' op has operands sharded over different meshes (@a and @b)}}
  %r = linalg.add ins(%x, %y : tensor<8xf32, #trellis.sharding<@a, [{"X"}]>>, tensor<8xf32, #trellis.sharding<@b, [{"X"}]>>)
                  outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// A loop carry that enters replicated but comes back sharded.
trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @carry(%x: tensor<8xf32, #trellis.sharding<@mesh, [{"X"}]>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant dense<0.0> : tensor<8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %s = linalg.add ins(%acc, %x : tensor<8xf32>, tensor<8xf32, #trellis.sharding<@mesh, [{"X"}]>>)
                    outs(%e : tensor<8xf32>) -> tensor<8xf32>
    // expected-error @below {{'scf.yield' op yields loop-carried value #0 as f32[8@X] but it enters the loop as f32[8]; a carry keeps its sharding (reshard it)}}
    scf.yield %s : tensor<8xf32>
  }
  return
}

// -----

trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @branches(%x: tensor<8xf32, #trellis.sharding<@mesh, [{"X"}]>>, %y: tensor<8xf32>, %c: i1) {
  // expected-error @below {{'scf.if' op branches yield result #0 as f32[8@X] and f32[8]; both branches must give it the same sharding}}
  %r = scf.if %c -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %s = linalg.add ins(%x, %x : tensor<8xf32, #trellis.sharding<@mesh, [{"X"}]>>, tensor<8xf32, #trellis.sharding<@mesh, [{"X"}]>>)
                    outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %s : tensor<8xf32>
  } else {
    scf.yield %y : tensor<8xf32>
  }
  return
}

// -----

// In a shard_map that makes only x manual, y stays explicit in the body's
// types; a collective that changes the shape of a dimension sharded over y
// is rejected.
trellis.mesh @mesh = <["x"=2, "y"=2], types = [explicit, explicit]>
func.func @partial(%a: tensor<8x4xf32, #trellis.sharding<@mesh, [{"x"}, {"y"}]>>) {
  %r = spmd.shard_map @mesh manual_axes = ["x"] in_specs = [[{"x"}, {}]] out_specs = [[{}, {}]]
      (%a) : (tensor<8x4xf32, #trellis.sharding<@mesh, [{"x"}, {"y"}]>>) -> tensor<4x4xf32> {
  ^bb0(%b: tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"y"}]>>):
    // expected-error @below {{'spmd.all_gather' op changes the shape of an operand that is sharded over explicit axes (f32[4,4@y]); reshard it to replicated first}}
    %g = spmd.all_gather %b over ["x"] dim 0 tiled : tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"y"}]>> -> tensor<8x4xf32>
    %s = tensor.extract_slice %g[0, 0] [4, 4] [1, 1] : tensor<8x4xf32> to tensor<4x4xf32>
    spmd.yield %s : tensor<4x4xf32>
  }
  return
}
