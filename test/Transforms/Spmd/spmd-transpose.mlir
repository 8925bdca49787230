// RUN: trellis-opt %s --spmd-transpose=funcs=named | FileCheck %s
// RUN: trellis-opt %s --spmd-transpose=naive=true | FileCheck %s --check-prefix=NAIVE
// Marked functions and named ones, under another name:
// RUN: trellis-opt %s "--spmd-transpose=funcs=named suffix=_bwd" | FileCheck %s --check-prefix=SUFFIX
// SUFFIX: func.func @arith_bwd(
// A second run does not transpose marked functions again:
// RUN: trellis-opt %s --spmd-transpose --spmd-transpose | FileCheck %s --check-prefix=TWICE
// TWICE-COUNT-1: func.func @arith_t(
// TWICE-NOT: func.func @arith_t(
// TWICE-NOT: func.func @arith_t_t(


trellis.mesh @m = <["i"=4, "j"=2]>

// Elementwise arith outside any shard_map.
// CHECK-LABEL: func.func @arith_t(
// CHECK-SAME: %[[W:.*]]: tensor<4xf32> {spmd.nonlinear}, %[[C:.*]]: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK: %[[THREE:.*]] = arith.constant dense<3.000000e+00>
// CHECK: %[[D:.*]] = arith.divf %[[C]], %[[THREE]]
// CHECK: %[[N:.*]] = arith.negf %[[D]]
// CHECK: %[[X:.*]] = arith.addf %[[N]], %[[C]]
// CHECK: %[[NC:.*]] = arith.negf %[[C]]
// CHECK: %[[Y:.*]] = arith.mulf %[[NC]], %[[W]]
// CHECK: return %[[X]], %[[Y]]
func.func @arith(%w: tensor<4xf32> {spmd.nonlinear}, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32>
    attributes {spmd.transpose} {
  %c = arith.constant dense<3.0> : tensor<4xf32>
  %a = arith.mulf %w, %y : tensor<4xf32>
  %b = arith.subf %x, %a : tensor<4xf32>
  %n = arith.negf %x : tensor<4xf32>
  %d = arith.divf %n, %c : tensor<4xf32>
  %r = arith.addf %b, %d : tensor<4xf32>
  return %r : tensor<4xf32>
}

// A matmul linear in its right operand; a contraction that is not a matmul.
// CHECK-LABEL: func.func @contractions_t(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf32> {spmd.nonlinear}, %[[M:[^:]*]]: tensor<3x5xf32> {spmd.nonlinear}, %[[CM:[^:]*]]: tensor<2x5xf32>, %[[CV:[^:]*]]: tensor<3xf32>)
// The matvec becomes a generic contraction:
// CHECK: %[[V:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[CV]], %[[M]] : tensor<3xf32>, tensor<3x5xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// The matmul stays a matmul, with A transposed:
// CHECK: %[[B:.*]] = linalg.matmul indexing_maps = [#[[MAPA:.*]], #[[MAPB:.*]], #[[MAPC:.*]]] ins(%[[A]], %[[CM]] : tensor<2x3xf32>, tensor<2x5xf32>) outs(%{{.*}} : tensor<3x5xf32>)
// CHECK: return %[[B]], %[[V]]
func.func @contractions(%a: tensor<2x3xf32> {spmd.nonlinear}, %mat: tensor<3x5xf32> {spmd.nonlinear},
                        %b: tensor<3x5xf32>, %v: tensor<5xf32>)
    -> (tensor<2x5xf32>, tensor<3xf32>) attributes {spmd.transpose} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  %m = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x5xf32>) outs(%z : tensor<2x5xf32>) -> tensor<2x5xf32>
  %e2 = tensor.empty() : tensor<3xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<3xf32>) -> tensor<3xf32>
  %mv = linalg.matvec ins(%mat, %v : tensor<3x5xf32>, tensor<5xf32>) outs(%z2 : tensor<3xf32>) -> tensor<3xf32>
  return %m, %mv : tensor<2x5xf32>, tensor<3xf32>
}

// An invariant value yielded to an output mapped over "j": the cotangent is
// the psum of the copies' cotangents. With check_vma = false, a varying
// value yielded to an unmapped output: the cotangent is divided.
// CHECK-LABEL: func.func @boundary_t(
// CHECK: spmd.shard_map @m in_specs = [{{\[}}]] out_specs = [{{\[}}{"i"}]] check_vma = false
// CHECK: %[[FOUR:.*]] = arith.constant dense<4.000000e+00>
// CHECK: arith.divf %{{.*}}, %[[FOUR]]
// CHECK: spmd.shard_map @m in_specs = [{{\[}}{"i"}, {"j"}]] out_specs = [{{\[}}{"i"}, {}]]
// CHECK: %[[S:.*]] = spmd.psum %{{.*}} over ["j"]
// CHECK: tensor.insert_slice %[[S]] into %{{.*}}[0, 0] [2, 2] [1, 1]
// NAIVE-LABEL: func.func @boundary_t(
// NAIVE: %[[EIGHT:.*]] = arith.constant dense<8.000000e+00>
// NAIVE: %[[D:.*]] = arith.divf %{{.*}}, %[[EIGHT]]
// NAIVE: %[[DV:.*]] = spmd.pvary %[[D]] over ["j"]
// NAIVE: spmd.psum %[[DV]] over ["j"]
// NAIVE: ^bb0(%[[Y:.*]]: tensor<2x2xf32, #spmd.vary<["i", "j"]>>):
// NAIVE-NOT: spmd.psum %[[Y]]
// NAIVE: %[[I:.*]] = tensor.insert_slice %[[Y]]
// NAIVE: spmd.psum %[[I]] over ["j"]
func.func @boundary(%x: tensor<8x4xf32>, %z: tensor<8xf32>) -> (tensor<8x4xf32>, tensor<2xf32>)
    attributes {spmd.transpose} {
  %r = spmd.shard_map @m in_specs = [[{"i"}, {}]] out_specs = [[{"i"}, {"j"}]]
      (%x) : (tensor<8x4xf32>) -> tensor<8x4xf32> {
  ^bb0(%xb: tensor<2x4xf32>):
    %h = tensor.extract_slice %xb[0, 0] [2, 2] [1, 1] : tensor<2x4xf32> to tensor<2x2xf32>
    spmd.yield %h : tensor<2x2xf32>
  }
  %u = spmd.shard_map @m in_specs = [[{"i"}]] out_specs = [[]] check_vma = false
      (%z) : (tensor<8xf32>) -> tensor<2xf32> {
  ^bb0(%zb: tensor<2xf32>):
    spmd.yield %zb : tensor<2xf32>
  }
  return %r, %u : tensor<8x4xf32>, tensor<2xf32>
}

// A loop: run backwards, the closed-over linear value accumulated in an
// extra carried value.
// CHECK-LABEL: func.func @loop_t(
// CHECK: %[[SPAN:.*]] = arith.subi %[[C5:.*]], %[[C0:.*]] : index
// CHECK: %[[N:.*]] = arith.ceildivsi %[[SPAN]], %[[C2:.*]] : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[CT:.*]] = %{{.*}}, %[[XB:.*]] = %{{.*}})
// CHECK: %[[P:.*]] = spmd.ppermute %[[CT]] over ["i"] pairs {{\[\[}}1, 0], [2, 1], [3, 2], [0, 3]]
// CHECK: %[[ACC:.*]] = arith.addf %[[XB]], %[[CT]]
// CHECK: scf.yield %[[P]], %[[ACC]]
func.func @loop(%x: tensor<8xf32>) -> tensor<8xf32> attributes {spmd.transpose} {
  %r = spmd.shard_map @m in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%xb: tensor<2xf32>):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
    %acc = scf.for %k = %c0 to %c5 step %c2 iter_args(%a = %z) -> (tensor<2xf32>) {
      %p = spmd.ppermute %a over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<2xf32>
      %s = arith.addf %p, %xb : tensor<2xf32>
      scf.yield %s : tensor<2xf32>
    }
    spmd.yield %acc : tensor<2xf32>
  }
  return %r : tensor<8xf32>
}

// A device function: its collectives transpose at the function level.
// CHECK-LABEL: func.func @device_t(
// CHECK-SAME: tensor<8xf32, #spmd.vary<["j"]>>) -> tensor<2xf32, #spmd.vary<["i", "j"]>> attributes {spmd.mesh = @m}
// CHECK-NEXT: spmd.pscatter %{{.*}} over ["i"] dim 0 tiled
func.func @device(%x: tensor<2xf32, #spmd.vary<["i", "j"]>>) -> tensor<8xf32, #spmd.vary<["j"]>>
    attributes {spmd.mesh = @m, spmd.transpose} {
  %g = spmd.all_gather_invariant %x over ["i"] dim 0 tiled
      : tensor<2xf32, #spmd.vary<["i", "j"]>> -> tensor<8xf32, #spmd.vary<["j"]>>
  return %g : tensor<8xf32, #spmd.vary<["j"]>>
}

// Named by the pass option rather than marked.
// CHECK-LABEL: func.func @named_t(
// CHECK: spmd.all_to_all %{{.*}} over ["i"] split 0 concat 1 : tensor<8x2xf32, #spmd.vary<["i"]>> -> tensor<2x8xf32, #spmd.vary<["i"]>>
// SUFFIX: func.func @named_bwd(
func.func @named(%x: tensor<8x8xf32>) -> tensor<32x2xf32> {
  %r = spmd.shard_map @m in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<8x8xf32>) -> tensor<32x2xf32> {
  ^bb0(%xb: tensor<2x8xf32>):
    %s = spmd.all_to_all %xb over ["i"] split 1 concat 0 : tensor<2x8xf32> -> tensor<8x2xf32>
    spmd.yield %s : tensor<8x2xf32>
  }
  return %r : tensor<32x2xf32>
}


// Nested shard_maps: the inner one transposes with its own axes.
// CHECK-LABEL: func.func @nested_t(
// CHECK: spmd.shard_map @m manual_axes = ["i"] in_specs = [{{\[}}{"i"}]] out_specs = [{{\[}}{"i"}]]
// CHECK: spmd.shard_map @m manual_axes = ["j"] in_specs = [{{\[}}]] out_specs = [{{\[}}{}, {"j"}]]
// CHECK-NEXT: ^bb0(%[[Y:.*]]: tensor<2x2xf32, #spmd.vary<["i"]>>):
// CHECK-NEXT: %[[V:.*]] = spmd.pvary %[[Y]] over ["j"]
// CHECK-NEXT: spmd.yield %[[V]]
func.func @nested(%x: tensor<8x4xf32>) -> tensor<8x2xf32> attributes {spmd.transpose} {
  %r = spmd.shard_map @m manual_axes = ["i"] in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<8x4xf32>) -> tensor<8x2xf32> {
  ^bb0(%xb: tensor<2x4xf32>):
    %in = spmd.shard_map @m manual_axes = ["j"] in_specs = [[{}, {"j"}]] out_specs = [[]]
        (%xb) : (tensor<2x4xf32>) -> tensor<2x2xf32> {
    ^bb1(%y: tensor<2x2xf32>):
      %s = spmd.psum %y over ["j"] : tensor<2x2xf32>
      spmd.yield %s : tensor<2x2xf32>
    }
    spmd.yield %in : tensor<2x2xf32>
  }
  return %r : tensor<8x2xf32>
}

// A shard_map whose used outputs are linear and non-linear: a copy that
// keeps only the non-linear part computes those forward.
// CHECK-LABEL: func.func @mixed_outputs_t(
// CHECK: %[[FWD:.*]] = spmd.shard_map @m4 in_specs = [] out_specs = {{\[\[}}{"i"}]] () :
// CHECK: arith.constant dense<1.0
// CHECK: %[[CT:.*]] = arith.mulf %{{.*}}, %[[FWD]]
// CHECK: spmd.shard_map @m4 in_specs = {{\[\[}}{"i"}]] out_specs = {{\[\[}}{"i"}]] (%[[CT]])
trellis.mesh @m4 = <["i"=4]>
func.func @mixed_outputs(%x: tensor<8xf32>) -> tensor<8xf32> attributes {spmd.transpose} {
  %r:2 = spmd.shard_map @m4 in_specs = [[{"i"}]] out_specs = [[{"i"}], [{"i"}]]
      (%x) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%xb: tensor<2xf32>):
    %c = arith.constant dense<1.0> : tensor<2xf32>
    %d = arith.addf %c, %c : tensor<2xf32>
    spmd.yield %xb, %d : tensor<2xf32>, tensor<2xf32>
  }
  %s = arith.mulf %r#0, %r#1 : tensor<8xf32>
  return %s : tensor<8xf32>
}

// An scf.if on a non-linear condition: an scf.if over the cotangents.
// CHECK-LABEL: func.func @branch_t(
// CHECK-SAME: %[[P:[^:]*]]: i1 {spmd.nonlinear}, %[[CT:[^:]*]]: tensor<4xf32>)
// CHECK: scf.if %[[P]] -> (tensor<4xf32>)
// CHECK: scf.yield %[[CT]]
// CHECK: } else {
// CHECK: arith.negf %[[CT]]
func.func @branch(%x: tensor<4xf32>, %p: i1 {spmd.nonlinear}) -> tensor<4xf32> attributes {spmd.transpose} {
  %r = scf.if %p -> tensor<4xf32> {
    scf.yield %x : tensor<4xf32>
  } else {
    %n = arith.negf %x : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// A loop that carries a non-linear value beside a linear one: the forward
// copy saves it per iteration, the backward loop reads it back.
// CHECK-LABEL: func.func @counted_t(
// CHECK: scf.for {{.*}} -> (index, tensor<3xindex>)
// CHECK: tensor.insert %{{.*}} into %{{.*}} : tensor<3xindex>
// CHECK: scf.for
// CHECK: tensor.extract %{{.*}} : tensor<3xindex>
func.func @counted(%x: tensor<4xf32>, %w: tensor<4xf32> {spmd.nonlinear}) -> tensor<4xf32> attributes {spmd.transpose} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r:2 = scf.for %k = %c0 to %c3 step %c1 iter_args(%a = %x, %n = %c0) -> (tensor<4xf32>, index) {
    %nf = arith.index_cast %n : index to i32
    %f = arith.sitofp %nf : i32 to f32
    %e = tensor.empty() : tensor<4xf32>
    %s = linalg.fill ins(%f : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %sw = arith.mulf %s, %w : tensor<4xf32>
    %d = arith.mulf %a, %sw : tensor<4xf32>
    %n1 = arith.addi %n, %c1 : index
    scf.yield %d, %n1 : tensor<4xf32>, index
  }
  return %r#0 : tensor<4xf32>
}

// The same loop with a trip count known only at run time: nothing is saved;
// iteration k of the backward loop recomputes the carried value from the
// start with a forward loop up to the induction variable it runs.
// CHECK-LABEL: func.func @dynamic_count_t(
// CHECK-NOT: tensor.insert
// CHECK: scf.for
// CHECK: %[[IV:.*]] = arith.addi
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[IV]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (index)
// CHECK-NOT: tensor.extract
// CHECK: return
func.func @dynamic_count(%x: tensor<4xf32>, %w: tensor<4xf32> {spmd.nonlinear}, %c3: index {spmd.nonlinear}) -> tensor<4xf32> attributes {spmd.transpose} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %k = %c0 to %c3 step %c1 iter_args(%a = %x, %n = %c0) -> (tensor<4xf32>, index) {
    %nf = arith.index_cast %n : index to i32
    %f = arith.sitofp %nf : i32 to f32
    %e = tensor.empty() : tensor<4xf32>
    %s = linalg.fill ins(%f : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %sw = arith.mulf %s, %w : tensor<4xf32>
    %d = arith.mulf %a, %sw : tensor<4xf32>
    %n1 = arith.addi %n, %c1 : index
    scf.yield %d, %n1 : tensor<4xf32>, index
  }
  return %r#0 : tensor<4xf32>
}
