// Shardy round-trip strings the importer cannot read or does not support:
// each a located error.
// RUN: trellis-opt %s -split-input-file -verify-diagnostics --trellis-import-stablehlo

// expected-error @+1 {{cannot read Shardy round-trip attribute 'xla.sdy.meshes': {mesh = #sdy.mesh<[x=2]>}}}
module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[x=2]>}"}} {
}

// -----

// expected-error @+1 {{Shardy round-trip attribute 'xla.sdy.use_tuple_args' on the module is not supported}}
module attributes {mhlo.frontend_attributes = {xla.sdy.use_tuple_args = "t"}} {
}

// -----

// expected-error @+1 {{xla.sdy.meshes entry 'mesh' is not a #sdy.mesh}}
module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = 3 : i64}"}} {
}

// -----

module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2]>}"}} {
  // expected-error @+1 {{xla.sdy.sharding must be a #sdy.sharding}}
  func.func @not_a_sharding(%arg0: tensor<8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>]>"}}) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
}

// -----

module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2]>}"}} {
  func.func @group(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{custom_call @xla.sdy.ShardingGroup (a Shardy round-trip op) is not supported}}
    %0 = stablehlo.custom_call @xla.sdy.ShardingGroup(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding_group_id = "12 : i64"}} : (tensor<8xf32>) -> tensor<8xf32>
    return %arg0 : tensor<8xf32>
  }
}

// -----

module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2]>}"}} {
  func.func @no_result_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{@xla.sdy.FuncResultSharding without a sharding}}
    %0 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%arg0) {has_side_effect = true} : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2]>}"}} {
  func.func @two_shardings(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{needs one operand, one result and a #sdy.sharding_per_value with one sharding}}
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>, <@mesh, [{}]>]>"}} : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2]>}"}} {
  func.func @no_manual_axes(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>]>"}} : (tensor<8xf32>) -> tensor<4xf32>
    // expected-error @+1 {{a manual computation needs xla.sdy.in_shardings, xla.sdy.out_shardings and xla.sdy.manual_axes}}
    %1 = call @xla.sdy.manual_computation_body(%0) : (tensor<4xf32>) -> tensor<4xf32>
    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {mhlo.frontend_attributes = {xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>]>"}} : (tensor<4xf32>) -> tensor<8xf32>
    return %2 : tensor<8xf32>
  }
  func.func @xla.sdy.manual_computation_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
}

// -----

module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2]>}"}} {
  func.func @result_escapes(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
    %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22x\22}>"}} : (tensor<8xf32>) -> tensor<4xf32>
    // expected-error @+1 {{the results of a manual computation body must go to one @xla.sdy.LocalToGlobalShape}}
    %1 = call @xla.sdy.manual_computation_body(%0) : (tensor<4xf32>) -> tensor<4xf32>
    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22x\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>]>"}} : (tensor<4xf32>) -> tensor<8xf32>
    return %2, %1 : tensor<8xf32>, tensor<4xf32>
  }
  func.func @xla.sdy.manual_computation_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
}

// -----

module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2]>}"}} {
  func.func @operand_not_local(%arg0: tensor<4xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{the operands of a manual computation body must be the results of one @xla.sdy.GlobalToLocalShape}}
    %1 = call @xla.sdy.manual_computation_body(%arg0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22x\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>]>"}} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) : (tensor<4xf32>) -> tensor<8xf32>
    return %2 : tensor<8xf32>
  }
  func.func @xla.sdy.manual_computation_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
}

// -----

module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2]>}"}} {
  func.func @unknown_op_entry(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{Shardy round-trip attribute 'xla.sdy.allowed_direction' is not supported}}
    %0 = stablehlo.negate %arg0 {mhlo.frontend_attributes = {xla.sdy.allowed_direction = "1 : i32"}} : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
