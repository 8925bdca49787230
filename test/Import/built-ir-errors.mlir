// Inputs whose manual computations and collectives do not fit together:
// the importer used to build spmd ops from them that its own verifier then
// rejected, so the user read an error about an op they never wrote. Each
// is now reported at the user's op, naming its attribute.
// RUN: trellis-opt %s -split-input-file -verify-diagnostics --trellis-import-stablehlo

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_result(%a: tensor<16x16xf32>) -> tensor<16x64xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%b: tensor<8x4xf32>) {
    // expected-error@+1 {{'stablehlo.all_gather' op result #0 has type 'tensor<8x16xf32>', but gathering along all_gather_dim 0 in groups of 4 makes it 'tensor<32x4xf32>'}}
    %1 = "stablehlo.all_gather"(%b) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<8x4xf32>) -> tensor<8x16xf32>
    sdy.return %1 : tensor<8x16xf32>
  } : (tensor<16x16xf32>) -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @gather_dim(%a: tensor<8x4xf32>) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x", "y"}, {}]>] manual_axes={"x", "y"} (%b: tensor<2x4xf32>) {
    // expected-error@+1 {{'stablehlo.all_gather' op all_gather_dim 3 is out of range for operand type 'tensor<2x4xf32>'}}
    %1 = "stablehlo.all_gather"(%b) <{all_gather_dim = 3 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2x4xf32>) -> tensor<2x16xf32>
    sdy.return %1 : tensor<2x16xf32>
  } : (tensor<8x4xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>
func.func @scatter_dim(%a: tensor<16x8xf32>) -> tensor<16x2xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%b: tensor<4x8xf32>) {
    // expected-error@+1 {{'stablehlo.reduce_scatter' op scatter_dimension -1 is out of range for operand type 'tensor<4x8xf32>'}}
    %1 = "stablehlo.reduce_scatter"(%b) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = -1 : i64, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x8xf32>) -> tensor<4x2xf32>
    sdy.return %1 : tensor<4x2xf32>
  } : (tensor<16x8xf32>) -> tensor<16x2xf32>
  return %0 : tensor<16x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>
func.func @scatter_divides(%a: tensor<16x6xf32>) -> tensor<16x1xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%b: tensor<4x6xf32>) {
    // expected-error@+1 {{'stablehlo.reduce_scatter' op scatter_dimension 1 has size 6, which groups of 4 do not divide}}
    %1 = "stablehlo.reduce_scatter"(%b) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x6xf32>) -> tensor<4x1xf32>
    sdy.return %1 : tensor<4x1xf32>
  } : (tensor<16x6xf32>) -> tensor<16x1xf32>
  return %0 : tensor<16x1xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>
func.func @all_to_all_divides(%a: tensor<12x8xf32>) -> tensor<12x8xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%b: tensor<3x8xf32>) {
    // expected-error@+1 {{'stablehlo.all_to_all' op split_dimension 0 has size 3, which split_count 4 does not divide}}
    %1 = "stablehlo.all_to_all"(%b) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<3x8xf32>) -> tensor<3x8xf32>
    sdy.return %1 : tensor<3x8xf32>
  } : (tensor<12x8xf32>) -> tensor<12x8xf32>
  return %0 : tensor<12x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>
func.func @permute_two_sources(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%b: tensor<2xf32>) {
    // expected-error@+1 {{source-target pairs [[0, 1], [0, 2], [2, 3], [3, 0]] name partition 0 as the source of more than one pair}}
    %1 = "stablehlo.collective_permute"(%b) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [0, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>
func.func @out_sharding_rank(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'sdy.manual_computation' op out_shardings[0] has 2 dimension shardings but result #0 has rank 1 ('tensor<8xf32>')}}
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%b: tensor<2xf32>) {
    sdy.return %b : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>
func.func @in_sharding_rank(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'sdy.manual_computation' op in_shardings[0] has 3 dimension shardings but operand #0 has rank 2 ('tensor<8x4xf32>')}}
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%b: tensor<2x4xf32>) {
    sdy.return %b : tensor<2x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>
func.func @axis_twice(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'sdy.manual_computation' op out_shardings[0] names mesh axis "x" more than once}}
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {"x"}]>] manual_axes={"x"} (%b: tensor<2x4xf32>) {
    sdy.return %b : tensor<2x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>
func.func @body_argument(%a: tensor<32x16xf32>) -> tensor<32x16xf32> {
  // expected-error@+1 {{'sdy.manual_computation' op body argument #0 has type 'tensor<16x16xf32>', but in_shardings[0] cuts operand #0 ('tensor<32x16xf32>') into blocks of type 'tensor<8x16xf32>'}}
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x"} (%b: tensor<16x16xf32>) {
    %c = stablehlo.slice %b [0:8, 0:16] : (tensor<16x16xf32>) -> tensor<8x16xf32>
    sdy.return %c : tensor<8x16xf32>
  } : (tensor<32x16xf32>) -> tensor<32x16xf32>
  return %0 : tensor<32x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>
func.func @returned_block(%a: tensor<8x4xf32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{'sdy.manual_computation' op returns value #0 of type 'tensor<2x4xf32>', but out_shardings[0] makes result #0 ('tensor<8x8xf32>') from blocks of type 'tensor<2x8xf32>'}}
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%b: tensor<2x4xf32>) {
    sdy.return %b : tensor<2x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>
func.func @uneven_block(%a: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error@+1 {{'sdy.manual_computation' op in_shardings[0] splits dimension 0 of operand #0 (size 6) into 4 blocks, which do not divide it}}
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%b: tensor<2xf32>) {
    %c = stablehlo.concatenate %b, %b, %b, dim = 0 : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<6xf32>
    sdy.return %c : tensor<6xf32>
  } : (tensor<6xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// An empty slice may start at the end of its dimension (jax.lax
// associative_scan prints one): it becomes an empty tensor, not a
// tensor.extract_slice out of bounds.
func.func @empty_slice(%a: tensor<8x2xf32>) -> tensor<8x0xf32> {
  %0 = stablehlo.slice %a [0:8, 2:2:2] : (tensor<8x2xf32>) -> tensor<8x0xf32>
  return %0 : tensor<8x0xf32>
}
