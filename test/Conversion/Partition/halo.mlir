// Halo exchange: a loop split over the mesh whose operand is read through
// a window (`i + 1`, a convolution's `o + k`) takes its block of the padded
// source and receives the few elements past each end from its neighbours,
// instead of gathering the dimension; the first and last device take the
// padding value. Bytes: trellis-comm-report; numbers: --reference.
// RUN: trellis-opt %s --split-input-file --trellis-global-to-manual | FileCheck %s
// RUN: trellis-opt %s --split-input-file --trellis-global-to-manual --trellis-comm-report -o /dev/null | FileCheck %s --check-prefix=BYTES

trellis.mesh @mesh = <["x"=4]>

// y[i] = x[i-1] + 2 x[i] + x[i+1]: one element from each neighbour, read
// once for the three shifted reads; the pad is gone.
// CHECK-LABEL: func.func @stencil
// CHECK: ^bb0(%[[X:.*]]: tensor<4xf32>):
// CHECK-DAG: %[[PAD:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG: %[[DEV:.*]] = spmd.axis_index over ["x"]
// CHECK: %[[LAST:.*]] = tensor.extract_slice %[[X]][3] [1] [1]
// CHECK: %[[FROMPREV:.*]] = spmd.ppermute %[[LAST]] over ["x"] pairs {{\[}}[0, 1], [1, 2], [2, 3]]
// CHECK: %[[FIRST:.*]] = tensor.extract_slice %[[X]][0] [1] [1]
// CHECK: %[[FROMNEXT:.*]] = spmd.ppermute %[[FIRST]] over ["x"] pairs {{\[}}[1, 0], [2, 1], [3, 2]]
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[PAD]] : f32)
// CHECK: %[[ISFIRST:.*]] = arith.cmpi eq, %[[DEV]], %c0
// CHECK: %[[LEFT:.*]] = arith.select %[[ISFIRST]], %[[FILL]], %[[FROMPREV]]
// CHECK: %[[ISLAST:.*]] = arith.cmpi eq, %[[DEV]], %c3
// CHECK: %[[RIGHT:.*]] = arith.select %[[ISLAST]], %{{.*}}, %[[FROMNEXT]]
// CHECK: %[[WIN:.*]] = tensor.concat dim(0) %[[LEFT]], %[[X]], %[[RIGHT]] : {{.*}} -> tensor<6xf32>
// CHECK-NOT: tensor.pad
// CHECK-NOT: spmd.all_gather
// CHECK: %[[A:.*]] = tensor.extract_slice %[[WIN]][0] [4] [1]
// CHECK: %[[B:.*]] = tensor.extract_slice %[[WIN]][1] [4] [1]
// CHECK: %[[C:.*]] = tensor.extract_slice %[[WIN]][2] [4] [1]
// CHECK: linalg.generic {{.*}} ins(%[[A]], %[[B]], %[[C]] : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// BYTES: comm @stencil
// BYTES-NEXT: spmd.ppermute over ["x"]: float32[1] -> float32[1], 4 B
// BYTES-NEXT: spmd.ppermute over ["x"]: float32[1] -> float32[1], 4 B
// BYTES-NEXT: total: 2 collectives, 8 B per device
func.func @stencil(%x: tensor<16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}]>})
    -> (tensor<16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}]>}) {
  %pv = arith.constant 0.5 : f32
  %p = tensor.pad %x low[2] high[2] {
  ^bb0(%i: index):
    tensor.yield %pv : f32
  } : tensor<16xf32> to tensor<20xf32>
  %e = tensor.empty() : tensor<16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i + 1)>, affine_map<(i) -> (i + 2)>, affine_map<(i) -> (i + 3)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%p, %p, %p : tensor<20xf32>, tensor<20xf32>, tensor<20xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %b2 = arith.addf %b, %b : f32
    %s = arith.addf %a, %b2 : f32
    %t = arith.addf %s, %c : f32
    linalg.yield %t : f32
  } -> tensor<16xf32>
  return %y : tensor<16xf32>
}

// -----

trellis.mesh @mesh = <["x"=2, "y"=2]>

// A 3x3 convolution with H over x and W over y: rows first, then columns
// of the extended rows (which carries the corners). Each axis has two
// devices, so one exchange per dimension serves both sides, and the
// padding row goes in after the column exchange (not sent with it):
// 1x4x2 + 5x1x2 elements, 72 B.
// CHECK-LABEL: func.func @conv2d
// CHECK: spmd.ppermute %{{.*}} over ["x"] pairs {{\[}}[0, 1], [1, 0]] : tensor<1x1x4x2xf32>
// CHECK: spmd.ppermute %{{.*}} over ["y"] pairs {{\[}}[0, 1], [1, 0]] : tensor<1x5x1x2xf32>
// CHECK-NOT: spmd.all_gather
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) outs(%{{.*}} : tensor<1x4x4x4xf32>)
// BYTES: comm @conv2d
// BYTES: total: 2 collectives, 72 B per device
func.func @conv2d(%x: tensor<1x8x8x2xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"x"}, {"y"}, {}]>},
                  %w: tensor<3x3x2x4xf32>)
    -> (tensor<1x8x8x4xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"x"}, {"y"}, {}]>}) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x2xf32> to tensor<1x10x10x2xf32>
  %e = tensor.empty() : tensor<1x8x8x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x10x2xf32>, tensor<3x3x2x4xf32>) outs(%z : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %y : tensor<1x8x8x4xf32>
}

// -----

trellis.mesh @mesh = <["x"=8]>

// A window wider than a block (9 taps, blocks of 2): the dimension is
// gathered (and padded) and each device slices its window of 10 out of
// it.
// CHECK-LABEL: func.func @wide_window
// CHECK: %[[ALL:.*]] = spmd.all_gather %{{.*}} over ["x"] dim 0 tiled : tensor<2xf32> -> tensor<16xf32>
// CHECK: %[[PADDED:.*]] = tensor.pad %[[ALL]] low[4] high[4]
// CHECK: %[[DEV:.*]] = spmd.axis_index over ["x"]
// CHECK: %[[START:.*]] = arith.muli %[[DEV]], %c2
// CHECK: tensor.extract_slice %[[PADDED]][%[[START]]] [10] [1] : tensor<24xf32> to tensor<10xf32>
// CHECK: linalg.conv_1d ins(%{{.*}}, %{{.*}} : tensor<10xf32>, tensor<9xf32>)
func.func @wide_window(%x: tensor<16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}]>},
                       %w: tensor<9xf32>)
    -> (tensor<16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"x"}]>}) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[4] high[4] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<16xf32> to tensor<24xf32>
  %e = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %y = linalg.conv_1d ins(%p, %w : tensor<24xf32>, tensor<9xf32>) outs(%z : tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
