// RUN: trellis-opt %s --spmd-check-variance | FileCheck %s
// Running it twice changes nothing (no second pvary):
// RUN: trellis-opt %s --spmd-check-variance --spmd-check-variance | FileCheck %s
// The annotated program still lowers (erase-variance drops the encodings,
// also from tensor constants):
// RUN: trellis-opt %s --spmd-check-variance --spmd-erase-variance | FileCheck %s --check-prefix=ERASED
// ERASED-NOT: #spmd.vary


trellis.mesh @mesh = <["i"=4, "j"=2]>

// Elementwise ops take the union; one pvary per (value, axes), reused.
// CHECK-LABEL: func.func @union
// CHECK: ^bb0(%[[X:.*]]: tensor<2x2xf32, #spmd.vary<["i", "j"]>>, %[[W:.*]]: tensor<4xf32, #spmd.vary<[]>>):
// CHECK: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<2x2xf32, #spmd.vary<[]>>
// CHECK-NEXT: %[[CV:.*]] = spmd.pvary %[[C]] over ["i", "j"] : tensor<2x2xf32, #spmd.vary<[]>> -> tensor<2x2xf32, #spmd.vary<["i", "j"]>>
// CHECK: %[[B:.*]] = linalg.broadcast ins(%{{.*}} : tensor<2xf32, #spmd.vary<[]>>) outs(%{{.*}} : tensor<2x2xf32, #spmd.vary<[]>>)
// CHECK-NEXT: %[[BV:.*]] = spmd.pvary %[[B]] over ["i", "j"]
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[X]], %[[CV]] : tensor<2x2xf32, #spmd.vary<["i", "j"]>>
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[M]], %[[CV]] : tensor<2x2xf32, #spmd.vary<["i", "j"]>>
// CHECK-NEXT: %[[S:.*]] = arith.subf %[[A]], %[[BV]] : tensor<2x2xf32, #spmd.vary<["i", "j"]>>
// CHECK-NEXT: spmd.yield %[[S]] : tensor<2x2xf32, #spmd.vary<["i", "j"]>>
// CHECK-NOT: spmd.pvary
// CHECK: return
func.func @union(%x: tensor<8x4xf32>, %w: tensor<4xf32>) -> tensor<8x4xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}], []] out_specs = [[{"i"}, {"j"}]]
      (%x, %w) : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32> {
  ^bb0(%xb: tensor<2x2xf32>, %wb: tensor<4xf32>):
    %c = arith.constant dense<2.0> : tensor<2x2xf32>
    %ws = tensor.extract_slice %wb[0] [2] [1] : tensor<4xf32> to tensor<2xf32>
    %e = tensor.empty() : tensor<2x2xf32>
    %wbc = linalg.broadcast ins(%ws : tensor<2xf32>) outs(%e : tensor<2x2xf32>) dimensions = [0]
    %a = arith.mulf %xb, %c : tensor<2x2xf32>
    %b = arith.addf %a, %c : tensor<2x2xf32>
    %d = arith.subf %b, %wbc : tensor<2x2xf32>
    spmd.yield %d : tensor<2x2xf32>
  }
  return %r : tensor<8x4xf32>
}

// Scalars from axis_index make slices vary.
// CHECK-LABEL: func.func @scalars
// CHECK: ^bb0(%[[W:.*]]: tensor<8xf32, #spmd.vary<[]>>):
// CHECK-NEXT: %[[WV:.*]] = spmd.pvary %[[W]] over ["i"]
// CHECK: tensor.extract_slice %[[WV]][%{{.*}}] [2] [1] : tensor<8xf32, #spmd.vary<["i"]>> to tensor<2xf32, #spmd.vary<["i"]>>
func.func @scalars(%w: tensor<8xf32>) -> tensor<8xf32> {
  %r = spmd.shard_map @mesh in_specs = [[]] out_specs = [[{"i"}]]
      (%w) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%wb: tensor<8xf32>):
    %idx = spmd.axis_index over ["i"] : index
    %c2 = arith.constant 2 : index
    %off = arith.muli %idx, %c2 : index
    %s = tensor.extract_slice %wb[%off] [2] [1] : tensor<8xf32> to tensor<2xf32>
    spmd.yield %s : tensor<2xf32>
  }
  return %r : tensor<8xf32>
}

// Collectives.
// CHECK-LABEL: func.func @collectives
// CHECK: spmd.psum %{{.*}} over ["i"] : tensor<2x2xf32, #spmd.vary<["i", "j"]>> -> tensor<2x2xf32, #spmd.vary<["j"]>>
// CHECK: spmd.all_gather %{{.*}} over ["i"] dim 0 tiled : tensor<2x2xf32, #spmd.vary<["i", "j"]>> -> tensor<8x2xf32, #spmd.vary<["i", "j"]>>
// CHECK: spmd.all_gather_invariant %{{.*}} over ["j"] dim 1 tiled : tensor<8x2xf32, #spmd.vary<["i", "j"]>> -> tensor<8x4xf32, #spmd.vary<["i"]>>
// CHECK: spmd.pscatter %{{.*}} over ["j"] dim 1 tiled : tensor<8x4xf32, #spmd.vary<["i"]>> -> tensor<8x2xf32, #spmd.vary<["i", "j"]>>
// A psum of an invariant value gets a pvary first (it multiplies by 8).
// CHECK: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<8x4xf32, #spmd.vary<[]>>
// CHECK-NEXT: %[[CV:.*]] = spmd.pvary %[[C]] over ["i", "j"]
// CHECK-NEXT: spmd.psum %[[CV]] over ["i", "j"] : tensor<8x4xf32, #spmd.vary<["i", "j"]>> -> tensor<8x4xf32, #spmd.vary<[]>>
func.func @collectives(%x: tensor<8x4xf32>) -> (tensor<2x4xf32>, tensor<32x4xf32>, tensor<8x4xf32>) {
  %r:3 = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}]] out_specs = [[{}, {"j"}], [{"i"}, {"j"}], [{}, {}]]
      (%x) : (tensor<8x4xf32>) -> (tensor<2x4xf32>, tensor<32x4xf32>, tensor<8x4xf32>) {
  ^bb0(%xb: tensor<2x2xf32>):
    %s = spmd.psum %xb over ["i"] : tensor<2x2xf32>
    %g = spmd.all_gather %xb over ["i"] dim 0 tiled : tensor<2x2xf32> -> tensor<8x2xf32>
    %gi = spmd.all_gather_invariant %g over ["j"] dim 1 tiled : tensor<8x2xf32> -> tensor<8x4xf32>
    %p = spmd.pscatter %gi over ["j"] dim 1 tiled : tensor<8x4xf32> -> tensor<8x2xf32>
    %c = arith.constant dense<1.0> : tensor<8x4xf32>
    %n = spmd.psum %c over ["i", "j"] : tensor<8x4xf32>
    spmd.yield %s, %p, %n : tensor<2x2xf32>, tensor<8x2xf32>, tensor<8x4xf32>
  }
  return %r#0, %r#1, %r#2 : tensor<2x4xf32>, tensor<32x4xf32>, tensor<8x4xf32>
}

// Loop-carried values iterate to a fixed point.
// CHECK-LABEL: func.func @loop
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2xf32, #spmd.vary<[]>>) -> tensor<2xf32, #spmd.vary<[]>>
// CHECK-NEXT: %[[FV:.*]] = spmd.pvary %[[F]] over ["i"]
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FV]], %{{.*}} = %[[FV]]) -> (tensor<2xf32, #spmd.vary<["i"]>>, tensor<2xf32, #spmd.vary<["i"]>>)
// CHECK: scf.yield %{{.*}}, %{{.*}} : tensor<2xf32, #spmd.vary<["i"]>>, tensor<2xf32, #spmd.vary<["i"]>>
func.func @loop(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%xb: tensor<2xf32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
    %out:2 = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %acc0, %t = %acc0) -> (tensor<2xf32>, tensor<2xf32>) {
      %next = arith.addf %t, %xb : tensor<2xf32>
      scf.yield %next, %acc : tensor<2xf32>, tensor<2xf32>
    }
    spmd.yield %out#1 : tensor<2xf32>
  }
  return %r : tensor<8xf32>
}

// A result that varies in one branch gets a pvary in the other.
// CHECK-LABEL: func.func @branch
// CHECK: ^bb0(%[[X:.*]]: tensor<2xf32, #spmd.vary<["i"]>>, %[[W:.*]]: tensor<2xf32, #spmd.vary<[]>>, %{{.*}}: tensor<i1, #spmd.vary<[]>>):
// CHECK-NEXT: %[[WV:.*]] = spmd.pvary %[[W]] over ["i"]
// CHECK: scf.if %{{.*}} -> (tensor<2xf32, #spmd.vary<["i"]>>)
// CHECK-NEXT: scf.yield %[[X]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[WV]]
func.func @branch(%x: tensor<8xf32>, %w: tensor<2xf32>, %p: tensor<i1>) -> tensor<8xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}], [], []] out_specs = [[{"i"}]]
      (%x, %w, %p) : (tensor<8xf32>, tensor<2xf32>, tensor<i1>) -> tensor<8xf32> {
  ^bb0(%xb: tensor<2xf32>, %wb: tensor<2xf32>, %pb: tensor<i1>):
    %cond = tensor.extract %pb[] : tensor<i1>
    %y = scf.if %cond -> tensor<2xf32> {
      scf.yield %xb : tensor<2xf32>
    } else {
      scf.yield %wb : tensor<2xf32>
    }
    spmd.yield %y : tensor<2xf32>
  }
  return %r : tensor<8xf32>
}

// check_vma = false: the unmapped output is not checked.
// CHECK-LABEL: func.func @unchecked
// CHECK: check_vma = false
// CHECK: spmd.yield %{{.*}} : tensor<2xf32, #spmd.vary<["i"]>>
func.func @unchecked(%x: tensor<8xf32>) -> tensor<2xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[]] check_vma = false
      (%x) : (tensor<8xf32>) -> tensor<2xf32> {
  ^bb0(%xb: tensor<2xf32>):
    spmd.yield %xb : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// A device function: arguments vary as annotated (else over every axis).
// CHECK-LABEL: func.func @device
// CHECK-SAME: (%{{.*}}: tensor<2xf32, #spmd.vary<["j"]>>, %{{.*}}: tensor<2xf32, #spmd.vary<["i", "j"]>>) -> tensor<2xf32, #spmd.vary<["i", "j"]>>
// CHECK: spmd.psum %{{.*}} over ["j"] : tensor<2xf32, #spmd.vary<["j"]>> -> tensor<2xf32, #spmd.vary<[]>>
// CHECK-NEXT: spmd.pvary %{{.*}} over ["i", "j"]
func.func @device(%a: tensor<2xf32, #spmd.vary<["j"]>>, %b: tensor<2xf32>) -> tensor<2xf32>
    attributes {spmd.mesh = @mesh, spmd.manual_axes = ["i", "j"]} {
  %s = spmd.psum %a over ["j"] : tensor<2xf32, #spmd.vary<["j"]>> -> tensor<2xf32>
  %t = arith.addf %s, %b : tensor<2xf32>
  return %t : tensor<2xf32>
}

// Nested shard_maps: the inner one makes "j" manual.
// CHECK-LABEL: func.func @nested
// CHECK: ^bb0(%{{.*}}: tensor<2x4xf32, #spmd.vary<["i"]>>):
// CHECK: spmd.shard_map @mesh manual_axes = ["j"] {{.*}} -> tensor<2x2xf32, #spmd.vary<["i"]>> {
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<2x2xf32, #spmd.vary<["i", "j"]>>):
// CHECK-NEXT: spmd.psum %{{.*}} over ["j"] : tensor<2x2xf32, #spmd.vary<["i", "j"]>> -> tensor<2x2xf32, #spmd.vary<["i"]>>
func.func @nested(%x: tensor<8x4xf32>) -> tensor<8x2xf32> {
  %r = spmd.shard_map @mesh manual_axes = ["i"] in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<8x4xf32>) -> tensor<8x2xf32> {
  ^bb0(%xb: tensor<2x4xf32>):
    %in = spmd.shard_map @mesh manual_axes = ["j"] in_specs = [[{}, {"j"}]] out_specs = [[]]
        (%xb) : (tensor<2x4xf32>) -> tensor<2x2xf32> {
    ^bb1(%y: tensor<2x2xf32>):
      %s = spmd.psum %y over ["j"] : tensor<2x2xf32>
      spmd.yield %s : tensor<2x2xf32>
    }
    spmd.yield %in : tensor<2x2xf32>
  }
  return %r : tensor<8x2xf32>
}

// scf.while: before and after arguments iterate to a fixed point.
// CHECK-LABEL: func.func @while
// CHECK: %[[F:.*]] = linalg.fill
// CHECK-NEXT: %[[FV:.*]] = spmd.pvary %[[F]] over ["j"]
// CHECK: scf.while (%{{.*}} = %[[FV]]) : (tensor<2xf32, #spmd.vary<["j"]>>) -> tensor<2xf32, #spmd.vary<["j"]>>
// CHECK: scf.condition(%{{.*}}) %{{.*}} : tensor<2xf32, #spmd.vary<["j"]>>
// CHECK: ^bb0(%{{.*}}: tensor<2xf32, #spmd.vary<["j"]>>):
func.func @while(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"j"}]] out_specs = [[{"j"}]]
      (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%xb: tensor<2xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
    %w = scf.while (%acc = %z) : (tensor<2xf32>) -> tensor<2xf32> {
      %c = arith.constant false
      scf.condition(%c) %acc : tensor<2xf32>
    } do {
    ^bb0(%a: tensor<2xf32>):
      %n = arith.addf %a, %xb : tensor<2xf32>
      scf.yield %n : tensor<2xf32>
    }
    spmd.yield %w : tensor<2xf32>
  }
  return %r : tensor<4xf32>
}

// Control dependence: an scf.if on the device's position yields two
// constants; its result varies over "a" although neither value does.
trellis.mesh @m2 = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func @if_on_position
// CHECK: scf.if %{{.*}} -> (tensor<2xf32, #spmd.vary<["a"]>>)
// CHECK: spmd.pvary %{{.*}} over ["a"]
// CHECK: spmd.pvary %{{.*}} over ["a"]
func.func @if_on_position(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = spmd.shard_map @m2 in_specs = [[]] out_specs = [[{"a"}]] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<4xf32>):
    %i = spmd.axis_index over ["a"] : index
    %c0 = arith.constant 0 : index
    %p = arith.cmpi eq, %i, %c0 : index
    %r = scf.if %p -> tensor<2xf32> {
      %c = arith.constant dense<1.0> : tensor<2xf32>
      scf.yield %c : tensor<2xf32>
    } else {
      %c = arith.constant dense<2.0> : tensor<2xf32>
      scf.yield %c : tensor<2xf32>
    }
    spmd.yield %r : tensor<2xf32>
  }
  return %y : tensor<4xf32>
}

// Any op with region control flow: scf.index_switch on a position over "b"
// (its results vary over "b", each case lifted to that), a psum typed inside
// a case, and scf.execute_region forwarding its region's value.
// CHECK-LABEL: func.func @switch
// CHECK: scf.index_switch %{{.*}} -> tensor<2xf32, #spmd.vary<["b"]>>
// CHECK: spmd.psum %{{.*}} over ["a"] : tensor<2xf32, #spmd.vary<["a"]>> -> tensor<2xf32, #spmd.vary<[]>>
// CHECK: spmd.pvary %{{.*}} over ["b"]
// CHECK: default
// CHECK: spmd.pvary %{{.*}} over ["b"]
// CHECK: spmd.psum %{{.*}} over ["b"] : tensor<2xf32, #spmd.vary<["b"]>> -> tensor<2xf32, #spmd.vary<[]>>
// CHECK: scf.execute_region -> tensor<2xf32, #spmd.vary<["a"]>>
func.func @switch(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %y:2 = spmd.shard_map @m2 in_specs = [[{"a"}]] out_specs = [[{"a"}], [{"a"}]] (%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%b: tensor<2xf32>):
    %i = spmd.axis_index over ["b"] : index
    %r = scf.index_switch %i -> tensor<2xf32>
    case 0 {
      %s = spmd.psum %b over ["a"] : tensor<2xf32>
      scf.yield %s : tensor<2xf32>
    }
    default {
      %c = arith.constant dense<2.0> : tensor<2xf32>
      scf.yield %c : tensor<2xf32>
    }
    %t = spmd.psum %r over ["b"] : tensor<2xf32>
    %e = scf.execute_region -> tensor<2xf32> {
      scf.yield %b : tensor<2xf32>
    }
    spmd.yield %t, %e : tensor<2xf32>, tensor<2xf32>
  }
  return %y#0, %y#1 : tensor<4xf32>, tensor<4xf32>
}

// A region op returning a scalar but computing on tensors inside: the
// tensors are typed too.
// CHECK-LABEL: func.func @switch_scalar
// CHECK: scf.index_switch %{{.*}} -> f32
// CHECK: arith.addf %{{.*}} : tensor<2xf32, #spmd.vary<["a"]>>
// CHECK: tensor.splat %{{.*}} : tensor<2xf32, #spmd.vary<["a", "b"]>>
func.func @switch_scalar(%x: tensor<4xf32>) -> tensor<8xf32> {
  %r = spmd.shard_map @m2 in_specs = [[{"a"}]] out_specs = [[{"a", "b"}]]
      (%x) : (tensor<4xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    %i = spmd.axis_index over ["b"] : index
    %c0 = arith.constant 0 : index
    %v = scf.index_switch %i -> f32
    case 0 {
      %c = arith.constant dense<1.0> : tensor<2xf32>
      %s = arith.addf %b, %c : tensor<2xf32>
      %e = tensor.extract %s[%c0] : tensor<2xf32>
      scf.yield %e : f32
    }
    default {
      %c = arith.constant 2.0 : f32
      scf.yield %c : f32
    }
    %t = tensor.splat %v : tensor<2xf32>
    spmd.yield %t : tensor<2xf32>
  }
  return %r : tensor<8xf32>
}
