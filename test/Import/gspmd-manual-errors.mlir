// GSPMD manual regions the importer cannot outline: each is a located
// error, never a dropped or misread region.
// RUN: trellis-opt %s -split-input-file -verify-diagnostics --trellis-import-stablehlo

module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @no_sharding_before(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}) -> tensor<8xf32> {
    // expected-error @+1 {{the operand of @SPMDFullToShardShape must be a @Sharding custom call giving its sharding}}
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%arg0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
    %2 = stablehlo.custom_call @SPMDShardToFullShape(%1) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<2xf32>) -> tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @wrong_block_shape(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
    // expected-error @+1 {{per-device type 'tensor<4xf32>' is not a block of 'tensor<8xf32>' under its sharding}}
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
    %2 = stablehlo.custom_call @SPMDShardToFullShape(%1) {mhlo.sharding = "{devices=[2,2]<=[4] last_tile_dim_replicate}"} : (tensor<4xf32>) -> tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @returned_per_device(%arg0: tensor<8xf32>) -> tensor<2xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
    // expected-error @+1 {{returns a per-device value of a GSPMD manual region without @SPMDShardToFullShape}}
    return %1 : tensor<2xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @reads_global(%arg0: tensor<8xf32>, %arg1: tensor<2xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
    // expected-error @+1 {{reads a value computed outside its GSPMD manual region; per-device code takes values only through @SPMDFullToShardShape}}
    %2 = stablehlo.add %1, %arg1 : tensor<2xf32>
    %3 = stablehlo.custom_call @SPMDShardToFullShape(%2) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<2xf32>) -> tensor<8xf32>
    return %3 : tensor<8xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @exit_without_entry(%arg0: tensor<2xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{@SPMDShardToFullShape without a matching @SPMDFullToShardShape in its block}}
    %0 = stablehlo.custom_call @SPMDShardToFullShape(%arg0) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<2xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @no_exit(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
    // expected-error @+1 {{GSPMD manual region has no @SPMDShardToFullShape: its values never leave it}}
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
    return %arg0 : tensor<8xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 4 : i32} {
  // expected-error @+1 {{GSPMD sharding "{manual}" outside a manual region}}
  func.func @manual_argument(%arg0: tensor<8xf32> {mhlo.sharding = "{manual}"}, %arg1: tensor<8xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 8 : i32} {
  func.func @partial_manual(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,4]<=[8] last_tile_dim_replicate}"} : (tensor<8xf32>) -> tensor<8xf32>
    // expected-error @+1 {{partially manual shardings (a shard_map with auto axes) are not supported yet}}
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{devices=[1,2,4]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<8xf32>) -> tensor<4xf32>
    %2 = stablehlo.custom_call @SPMDShardToFullShape(%1) {mhlo.sharding = "{devices=[2,4]<=[8] last_tile_dim_replicate}"} : (tensor<4xf32>) -> tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}

// -----

// expected-error @+1 {{a GSPMD manual region with only replicated shardings needs mhlo.num_partitions > 1}}
module {
  func.func @no_partitions(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<8xf32>
    %2 = stablehlo.custom_call @SPMDShardToFullShape(%1) {mhlo.sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}

// -----

module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @exit_read_early(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
    %2 = stablehlo.custom_call @SPMDShardToFullShape(%1) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<2xf32>) -> tensor<8xf32>
    // expected-error @+1 {{reads the result of a GSPMD manual region before the region's last op; the region cannot be made one shard_map}}
    %3 = stablehlo.add %2, %arg1 : tensor<8xf32>
    %4 = stablehlo.custom_call @Sharding(%3) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
    %5 = stablehlo.custom_call @SPMDFullToShardShape(%4) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
    %6 = stablehlo.add %1, %5 : tensor<2xf32>
    %7 = stablehlo.custom_call @SPMDShardToFullShape(%6) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<2xf32>) -> tensor<8xf32>
    return %7 : tensor<8xf32>
  }
}
