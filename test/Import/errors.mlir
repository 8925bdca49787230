// What the importer does not model stops it with an error at the op or
// attribute, never a silent drop.
// RUN: trellis-opt %s -split-input-file -verify-diagnostics --trellis-import-stablehlo

sdy.mesh @mesh = <["x"=2]>
// expected-error@+1 {{unknown mesh axis "z" (mesh @mesh has axes ["x"])}}
func.func @unknown_axis(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}]>}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
// expected-error@+1 {{sharding names an unknown mesh @other}}
func.func @unknown_mesh(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}]>}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>
// expected-error@+1 {{sub-axis "x":(1)4 is not a proper part of mesh axis "x" of size 4}}
func.func @sub_axis(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)4}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

func.func @dot_sizes(%a: tensor<4x8xf32>, %b: tensor<6x3xf32>) -> tensor<4x3xf32> {
  // expected-error@+1 {{lhs dimension 1 (size 8) and rhs dimension 0 (size 6) are paired but differ in size}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @dot_dims(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xf32> {
  // expected-error@+1 {{batching and contracting dimensions must be distinct dimensions of the operands}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [2] x [0] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @dot_result(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{does not match the dot_general's shape [4, 3]}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @broadcast(%a: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{operand dimension 0 of size 3 cannot broadcast to size 4}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error@+1 {{dynamic shapes are not supported}}
  %0 = stablehlo.negate %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @complex(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error@+1 {{element type 'complex<f32>' is not supported yet}}
  %0 = stablehlo.add %a, %a : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @total_order(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error@+1 {{TOTALORDER comparisons are not supported yet}}
  %0 = stablehlo.compare  LT, %a, %a,  TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @int_power(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'stablehlo.power' of integers is not supported yet}}
  %0 = stablehlo.power %a, %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @interior(%a: tensor<3xf32>, %p: tensor<f32>) -> tensor<5xf32> {
  // expected-error@+1 {{interior padding is not supported yet}}
  %0 = stablehlo.pad %a, %p, low = [0], high = [0], interior = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @reducer(%a: tensor<4x8xf32>, %c: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%a init: %c) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%x: tensor<f32>, %y: tensor<f32>)  {
    // expected-error@+1 {{'stablehlo.reshape' is not supported in a reducer}}
    %r = stablehlo.reshape %x : (tensor<f32>) -> tensor<f32>
    stablehlo.return %r : tensor<f32>
  }
  return %0 : tensor<4xf32>
}

// -----

// expected-error@+1 {{mhlo.num_partitions is 8 but mesh @mesh has 4 devices}}
module attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["x"=4]>
}

// -----

// expected-error@+1 {{replica parallelism is not supported}}
module attributes {mhlo.num_replicas = 2 : i32} {
}

// -----

// expected-error@+1 {{mesh @maximal has no axes}}
sdy.mesh @maximal = <[], device_ids=[0]>

// -----

// expected-error@+1 {{GSPMD sharding "{manual}" outside a manual region}}
func.func @gspmd_manual(%a: tensor<4xf32> {mhlo.sharding = "{manual}"}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// expected-error@+1 {{cannot read GSPMD sharding "{devices=[2]<=[3]}"}}
func.func @gspmd_garbage(%a: tensor<4xf32> {mhlo.sharding = "{devices=[2]<=[3]}"}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// A device order no mesh of row-major axes produces.
// expected-error@+1 {{the module's GSPMD tile assignments are not splits of one mesh of 4 devices}}
func.func @gspmd_order(%a: tensor<4xf32> {mhlo.sharding = "{devices=[4]0,2,3,1}"}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

module attributes {mhlo.num_partitions = 8 : i32} {
  // expected-error@+1 {{GSPMD tile assignments cover 4 devices but mhlo.num_partitions is 8}}
  func.func @gspmd_count(%a: tensor<4xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}

// -----

func.func @custom_call(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{custom_call @my_kernel is not supported}}
  %0 = stablehlo.custom_call @my_kernel(%a) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @custom_call_manual(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{GSPMD sharding "{manual}" outside a manual region (@SPMDFullToShardShape ... @SPMDShardToFullShape)}}
  %0 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @slice(%a: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{slice [3:5:1] is out of range for dimension 0}}
  %0 = stablehlo.slice %a [3:5] : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @transpose(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{transpose dims [0, 0] are not a permutation of the 2 dimensions}}
  %0 = stablehlo.transpose %a, dims = [0, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @reduce_dims(%a: tensor<4x8xf32>, %c: tensor<f32>) -> tensor<4xf32> {
  // expected-error@+1 {{dimension 2 is out of range for an operand of rank 2}}
  %0 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [2] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @groups(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x", "y"} (%b: tensor<4xf32>) {
    // expected-error@+1 {{replica groups [[0, 3], [1, 2]] are not the groups of a set of mesh axes of @mesh}}
    %1 = "stablehlo.all_reduce"(%b) <{replica_groups = dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @not_manual(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%b: tensor<4xf32>) {
    // expected-error@+1 {{the collective runs over mesh axis "y", which is not manual here}}
    %1 = "stablehlo.all_gather"(%b) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<4xf32>) -> tensor<8xf32>
    sdy.return %b : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>
func.func @pairs(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%b: tensor<4xf32>) {
    // expected-error@+1 {{source-target pairs [[0, 1], [2, 0], [3, 4]] are not one permutation along mesh axes of @mesh}}
    %1 = "stablehlo.collective_permute"(%b) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 1], [2, 0], [3, 4]]> : tensor<3x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @pairs_differ(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x", "y"} (%b: tensor<4xf32>) {
    // A different permutation in each group along "y".
    // expected-error@+1 {{are not one permutation along mesh axes of @mesh, repeated in every group}}
    %1 = "stablehlo.collective_permute"(%b) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0], [2, 2]]> : tensor<3x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @product(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%b: tensor<4xf32>) {
    // expected-error@+1 {{the reduction must be one stablehlo.add, maximum or minimum of the two arguments}}
    %1 = "stablehlo.all_reduce"(%b) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.multiply %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @outside(%a: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'stablehlo.all_gather' outside a manual computation (sdy.manual_computation or a GSPMD manual region) is not supported}}
  %1 = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<4xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @free_axis(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{sharding over non-manual axis "y" in a manual computation is not supported yet}}
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"y"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%b: tensor<2xf32>) {
    sdy.return %b : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gather_batching(%a: tensor<2x4xf32>, %i: tensor<2x1xi32>) -> tensor<2xf32> {
  // expected-error@+1 {{gathers with batching dimensions are not supported yet}}
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x4xf32>, tensor<2x1xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gather_sizes(%a: tensor<8x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{slice size 2 does not fit operand dimension 0}}
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_result(%a: tensor<8x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{result dimension 1 must be the slice size 4}}
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @dynamic_slice(%a: tensor<4xf32>, %i: tensor<i32>) -> tensor<5xf32> {
  // expected-error@+1 {{size 5 does not fit dimension 0 of 'tensor<4xf32>'}}
  %0 = stablehlo.dynamic_slice %a, %i, sizes = [5] : (tensor<4xf32>, tensor<i32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// expected-error@+1 {{result #0 is 'tensor<4xui64>': unsigned 64-bit results are not supported yet (no signed type holds their values)}}
func.func @unsigned_64_result(%a: tensor<4xui64>) -> tensor<4xui64> {
  return %a : tensor<4xui64>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @pid_partial(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%b: tensor<4xf32>) {
    // expected-error@+1 {{'stablehlo.partition_id' in a computation manual over only some axes is not supported}}
    %p = stablehlo.partition_id : tensor<ui32>
    sdy.return %b : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pid_global() -> tensor<i32> {
  // expected-error@+1 {{'stablehlo.partition_id' outside a manual computation (sdy.manual_computation or a GSPMD manual region) is not supported}}
  %p = stablehlo.partition_id : tensor<ui32>
  %c = stablehlo.convert %p : (tensor<ui32>) -> tensor<i32>
  return %c : tensor<i32>
}

// -----

func.func @dilated_window(%a: tensor<8xf32>, %c: tensor<f32>) -> tensor<3xf32> {
  // expected-error@+1 {{window_dilations [0] need one positive entry per dimension of 'tensor<8xf32>'}}
  %0 = "stablehlo.reduce_window"(%a, %c) <{window_dimensions = array<i64: 2>, window_dilations = array<i64: 0>, window_strides = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @window_size(%a: tensor<8xf32>, %c: tensor<f32>) -> tensor<5xf32> {
  // expected-error@+1 {{window 2, stride 2, dilations 1 (base) and 1 (window) and padding [0, 0] of dimension 0 do not give the result's size 5}}
  %0 = "stablehlo.reduce_window"(%a, %c) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>, tensor<f32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @cross_replica(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%b: tensor<4xf32>) {
    // expected-error@+1 {{'stablehlo.all_reduce' without use_global_device_ids runs across replicas, which are not supported}}
    %1 = "stablehlo.all_reduce"(%b) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @unsigned_max(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%b: tensor<4xi32>) {
    %u = stablehlo.convert %b : (tensor<4xi32>) -> tensor<4xui32>
    // expected-error@+1 {{max and min reductions of unsigned integers are not supported yet}}
    %1 = "stablehlo.all_reduce"(%u) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<ui32>, %y: tensor<ui32>):
      %s = stablehlo.maximum %x, %y : tensor<ui32>
      stablehlo.return %s : tensor<ui32>
    }) : (tensor<4xui32>) -> tensor<4xui32>
    %2 = stablehlo.convert %1 : (tensor<4xui32>) -> tensor<4xi32>
    sdy.return %2 : tensor<4xi32>
  } : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

sdy.mesh @mesh = <["x"=2], device_ids=[1, 0]>
func.func @device_order(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%b: tensor<4xf32>) {
    // expected-error@+1 {{collectives on a mesh with device_ids are not supported yet}}
    %1 = "stablehlo.all_reduce"(%b) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dot_narrow(%a: tensor<2x2xf32>) -> tensor<2x2xbf16> {
  // expected-error@+1 {{dot_general into 'bf16', narrower than its 'f32' operands, is not supported}}
  %0 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xbf16>
  return %0 : tensor<2x2xbf16>
}

// -----

func.func @captured(%a: tensor<4x8xf32>, %c: tensor<f32>, %k: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%a init: %c) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%x: tensor<f32>, %y: tensor<f32>)  {
    // expected-error@+1 {{a reducer using a value from outside its region is not supported}}
    %s = stablehlo.add %x, %k : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A round-trip sharding naming a mesh the module does not declare.
// expected-error@+1 {{sharding names an unknown mesh @mesh}}
func.func @round_trip_arg(%a: tensor<4xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\"x\"}]>"}}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

func.func @top_k_too_many(%a: tensor<4x3xf32>) -> (tensor<4x4xf32>, tensor<4x4xi32>) {
  // expected-error@+1 {{top_k of 'tensor<4x3xf32>' with k = 4 must give 4 values and i32 indices along the last dimension (k at most 3)}}
  %v, %i = chlo.top_k(%a, k = 4) : tensor<4x3xf32> -> (tensor<4x4xf32>, tensor<4x4xi32>)
  return %v, %i : tensor<4x4xf32>, tensor<4x4xi32>
}

// -----

func.func @top_k_smallest(%a: tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  // expected-error@+1 {{top_k with largest = false is not supported}}
  %v, %i = chlo.top_k(%a, k = 2) {largest = false} : tensor<4x3xf32> -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return %v, %i : tensor<4x2xf32>, tensor<4x2xi32>
}

// -----

func.func @top_k_bool(%a: tensor<4x3xi1>) -> (tensor<4x2xi1>, tensor<4x2xi32>) {
  // expected-error@+1 {{top_k of 'i1' is not supported}}
  %v, %i = chlo.top_k(%a, k = 2) : tensor<4x3xi1> -> (tensor<4x2xi1>, tensor<4x2xi32>)
  return %v, %i : tensor<4x2xi1>, tensor<4x2xi32>
}

// -----

func.func @top_k_unsigned(%a: tensor<4x3xf32>) -> tensor<4x2xi32> {
  %u = stablehlo.convert %a : (tensor<4x3xf32>) -> tensor<4x3xui32>
  // expected-error@+1 {{top_k of unsigned integers is not supported yet}}
  %v, %i = chlo.top_k(%u, k = 2) : tensor<4x3xui32> -> (tensor<4x2xui32>, tensor<4x2xi32>)
  return %i : tensor<4x2xi32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{expected FORWARD, BACKWARD or NONE, got BOTH}}
  %0 = sdy.propagation_barrier %a allowed_direction=BOTH : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @while_returns_too_few(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  // expected-error @below {{the body must return one value per operand}}
  %0:2 = stablehlo.while(%i = %c, %x = %a) : tensor<i32>, tensor<4xf32>
   cond {
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare  LT, %i, %c3,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j : tensor<i32>
  }
  return %0#1 : tensor<4xf32>
}

// -----

// Found by the fuzzer: a padding near 2^63 overflowed the window arithmetic.
func.func @reduce_window_huge_padding(%x: tensor<8xf32>) -> tensor<8xf32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{window attribute 9223372036854775807 of dimension 0 is out of range}}
  %0 = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 1>, padding = dense<[[0, 9223372036854775807]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
