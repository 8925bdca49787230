// RUN: trellis-opt %s --trellis-infer-shardings --split-input-file | FileCheck %s
// RUN: trellis-opt %s --trellis-infer-shardings --trellis-print-types --split-input-file -o /dev/null | FileCheck %s --check-prefix=TYPES

// Seed 002: arg0 + arg1 broadcasts int32[4@X,1] and int32[1,8@Y] to
// int32[4@X,8@Y]; the destination and the function result take it.
trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>

// CHECK-LABEL: func.func @add_arrays
// CHECK-SAME: -> tensor<4x8xi32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
// CHECK: tensor.empty() : tensor<4x8xi32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
// CHECK: linalg.generic
// CHECK: } -> tensor<4x8xi32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
// TYPES-LABEL: @add_arrays
// TYPES-NEXT: %arg0 : int32[4@X,1]
// TYPES-NEXT: %arg1 : int32[1,8@Y]
// TYPES-NEXT: %0 = tensor.empty : int32[4@X,8@Y]
// TYPES-NEXT: %1 = linalg.generic : int32[4@X,8@Y]
func.func @add_arrays(%x: tensor<4x1xi32, #trellis.sharding<@mesh, [{"X"}, {}]>>,
                      %y: tensor<1x8xi32, #trellis.sharding<@mesh, [{}, {"Y"}]>>) -> tensor<4x8xi32> {
  %init = tensor.empty() : tensor<4x8xi32>
  %ans = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 0)>,
                                          affine_map<(i, j) -> (0, j)>,
                                          affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x1xi32, #trellis.sharding<@mesh, [{"X"}, {}]>>,
                   tensor<1x8xi32, #trellis.sharding<@mesh, [{}, {"Y"}]>>)
      outs(%init : tensor<4x8xi32>) {
  ^bb0(%a: i32, %b: i32, %unused: i32):
    %s = arith.addi %a, %b : i32
    linalg.yield %s : i32
  } -> tensor<4x8xi32>
  return %ans : tensor<4x8xi32>
}

// -----

// Seed 003 on a 2x2 mesh: x * 2 keeps float32[8@X,2@Y].
trellis.mesh @mesh = <["X"=2, "Y"=2], types = [explicit, explicit]>

// TYPES-LABEL: @times_two
// TYPES-NEXT: %arg0 : float32[8@X,2@Y]
// TYPES-NEXT: %0 = tensor.empty : float32[8@X,2@Y]
// TYPES-NEXT: %1 = linalg.generic : float32[8@X,2@Y]
func.func @times_two(%x: tensor<8x2xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>) -> tensor<8x2xf32> {
  %init = tensor.empty() : tensor<8x2xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x2xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>) outs(%init : tensor<8x2xf32>) {
  ^bb0(%v: f32, %unused: f32):
    %two = arith.constant 2.0 : f32
    %r = arith.mulf %v, %two : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  return %out : tensor<8x2xf32>
}

// -----

// Seed 003: the einsum with a sharded contracting dimension is accepted
// once its result carries out_sharding=P('X', 'Y') (via its destination).
trellis.mesh @mesh = <["X"=2, "Y"=2], types = [explicit, explicit]>

// CHECK-LABEL: func.func @matmul_square
// CHECK: linalg.matmul
// CHECK-SAME: -> tensor<8x8192xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
// TYPES-LABEL: @matmul_square
// TYPES: %{{.*}} = linalg.mul : float32[8@X,2048@Y]
// TYPES: %{{.*}} = linalg.matmul : float32[8@X,8192@Y]
func.func @matmul_square(%in: tensor<8x2048xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>,
                         %w: tensor<2048x8192xf32, #trellis.sharding<@mesh, [{"Y"}, {}]>>)
    -> tensor<8x8192xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>> {
  %e = tensor.empty() : tensor<8x2048xf32>
  %sq = linalg.mul ins(%in, %in : tensor<8x2048xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>,
                                  tensor<8x2048xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>)
                   outs(%e : tensor<8x2048xf32>) -> tensor<8x2048xf32>
  %zero = arith.constant 0.0 : f32
  %oe = tensor.empty() : tensor<8x8192xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
  %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x8192xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>)
      -> tensor<8x8192xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
  %out = linalg.matmul ins(%sq, %w : tensor<8x2048xf32>, tensor<2048x8192xf32, #trellis.sharding<@mesh, [{"Y"}, {}]>>)
                       outs(%init : tensor<8x8192xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>)
      -> tensor<8x8192xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
  return %out : tensor<8x8192xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
}

// -----

// Contractions over unsharded dimensions need no out_sharding; a shared
// fresh destination is copied per use before it is retyped.
trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>

// CHECK-LABEL: func.func @contractions
// CHECK-DAG: %[[E1:.*]] = tensor.empty() : tensor<8x16xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
// CHECK-DAG: %[[E2:.*]] = tensor.empty() : tensor<8x16xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>
func.func @contractions(%a: tensor<8x4xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>,
                        %b: tensor<4x16xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>,
                        %c: tensor<4x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  // CHECK: linalg.matmul {{.*}} outs(%[[E1]] {{.*}} -> tensor<8x16xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
  %r1 = linalg.matmul ins(%a, %b : tensor<8x4xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>,
                                   tensor<4x16xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>)
                      outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: linalg.matmul {{.*}} outs(%[[E2]] {{.*}} -> tensor<8x16xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>
  %r2 = linalg.matmul ins(%a, %c : tensor<8x4xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>, tensor<4x16xf32>)
                      outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r1, %r2 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// The reshape rule: size-1 dimensions do not count; a split or merge of an
// unsharded dimension keeps the other dimensions' shardings.
trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>

// TYPES-LABEL: @reshapes
// TYPES: tensor.expand_shape : float32[8@X,2,3]
// TYPES: tensor.collapse_shape : float32[8@X,6]
// TYPES: tensor.expand_shape : float32[1,8@X,6]
// TYPES: tensor.collapse_shape : float32[8@X,6]
func.func @reshapes(%x: tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>) {
  %split = tensor.expand_shape %x [[0], [1, 2]] output_shape [8, 2, 3]
      : tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>> into tensor<8x2x3xf32>
  %merge = tensor.collapse_shape %split [[0], [1, 2]] : tensor<8x2x3xf32> into tensor<8x6xf32>
  %unit = tensor.expand_shape %x [[0, 1], [2]] output_shape [1, 8, 6]
      : tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>> into tensor<1x8x6xf32>
  %back = tensor.collapse_shape %unit [[0, 1], [2]] : tensor<1x8x6xf32> into tensor<8x6xf32>
  return
}

// -----

// Slices of whole dimensions keep shardings. Control flow is typed by its
// operands (MLIR requires loop carries and branch results to agree), and
// inference checks the bodies.
trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>

// TYPES-LABEL: @control_flow
// TYPES: tensor.extract_slice : float32[8@X,2]
// TYPES: scf.for : float32[8@X,6]
// TYPES: linalg.add : float32[8@X,6]
// TYPES: scf.if : float32[8@X,6]
func.func @control_flow(%x: tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>, %n: index, %c: i1) {
  %s = tensor.extract_slice %x[0, 1] [8, 2] [1, 1]
      : tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>> to tensor<8x2xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %loop = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x)
      -> (tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>) {
    %sum = linalg.add ins(%acc, %x : tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>,
                                     tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>)
                      outs(%acc : tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>)
        -> tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>
    scf.yield %sum : tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>
  }
  %pick = scf.if %c -> tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>> {
    scf.yield %loop : tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>
  } else {
    scf.yield %x : tensor<8x6xf32, #trellis.sharding<@mesh, [{"X"}, {}]>>
  }
  return
}

// -----

// Seed 002's auto_axes example: inside g, X is auto and y is float32[4,4@Y];
// outside z is float32[4@X,4@Y] (the out_sharding). explicit_g in an auto
// mesh: y and z are float32[4@X,4@Y] inside, plain float32[4,4] outside.
trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
trellis.mesh @auto_mesh = <["X"=2, "Y"=4]>

// TYPES-LABEL: @f
// TYPES-NEXT: %arg0 : float32[4@X,4@Y]
// TYPES-NEXT: %0 = math.sin : float32[4@X,4@Y]
// TYPES-NEXT: %1 = trellis.auto_axes : float32[4@X,4@Y]
// TYPES-NEXT:   %arg1 : float32[4,4@Y]
// TYPES-NEXT:   %{{.*}} = tensor.empty : float32[4,4@Y]
// TYPES-NEXT:   %{{.*}} = linalg.generic : float32[4,4@Y]
func.func @f(%arr1: tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>)
    -> tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>> {
  %x = math.sin %arr1 : tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
  %z = trellis.auto_axes @mesh ["X"] (%x)
      : (tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>)
     -> tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>> {
  ^bb0(%y: tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>):
    %e = tensor.empty() : tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%y : tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>)
        outs(%e : tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>) {
    ^bb0(%v: f32, %unused: f32):
      %two = arith.constant 2.0 : f32
      %m = arith.mulf %v, %two : f32
      linalg.yield %m : f32
    } -> tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>
    trellis.yield %r : tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"Y"}]>>
  }
  return %z : tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}]>>
}

// TYPES-LABEL: @explicit_g
// TYPES-NEXT: %arg0 : float32[4,4]
// TYPES-NEXT: %0 = trellis.explicit_axes : float32[4,4]
// TYPES-NEXT:   %arg1 : float32[4@X,4@Y]
// TYPES-NEXT:   %{{.*}} = tensor.empty : float32[4@X,4@Y]
// TYPES-NEXT:   %{{.*}} = linalg.generic : float32[4@X,4@Y]
func.func @explicit_g(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %z = trellis.explicit_axes @auto_mesh ["X", "Y"] (%x) : (tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%y: tensor<4x4xf32, #trellis.sharding<@auto_mesh, [{"X"}, {"Y"}]>>):
    %e = tensor.empty() : tensor<4x4xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%y : tensor<4x4xf32, #trellis.sharding<@auto_mesh, [{"X"}, {"Y"}]>>)
        outs(%e : tensor<4x4xf32>) {
    ^bb0(%v: f32, %unused: f32):
      %two = arith.constant 2.0 : f32
      %m = arith.mulf %v, %two : f32
      linalg.yield %m : f32
    } -> tensor<4x4xf32>
    trellis.yield %r : tensor<4x4xf32>
  }
  return %z : tensor<4x4xf32>
}
