// GSPMD sharding strings: the importer infers one mesh of prime-sized axes
// on which every tile assignment is a split over axes, and imports each
// string (arguments, results, @Sharding custom calls) as a Trellis
// sharding on it.
// RUN: trellis-opt %s --split-input-file --trellis-import-stablehlo | FileCheck %s

// A (2, 4) mesh as JAX lays it out: "data" is x0, "model" is x1 then x2.
// CHECK: trellis.mesh @gspmd_mesh = <["x0"=2, "x1"=2, "x2"=2]>
// CHECK-LABEL: func.func @mesh_2x4
// CHECK-SAME: %arg0: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@gspmd_mesh, [{"x0"}, {}]>}
// CHECK-SAME: %arg1: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@gspmd_mesh, [{}, {"x1", "x2"}]>}
// CHECK-SAME: %arg2: tensor<8x32xf32> {trellis.sharding = #trellis.sharding<@gspmd_mesh, [{"x0"}, {"x1", "x2"}]>}
// CHECK-SAME: %arg3: tensor<8x32xf32> {trellis.sharding = #trellis.sharding<@gspmd_mesh, [{"x1", "x2"}, {"x0"}]>}
// CHECK-SAME: %arg4: tensor<8xf32> {trellis.sharding = #trellis.sharding<@gspmd_mesh, [{}]>}
// CHECK-SAME: %arg5: tensor<8xf32> {trellis.sharding = #trellis.sharding<@gspmd_mesh, [{}]>}
// CHECK: trellis.sharding_constraint %arg2 to <@gspmd_mesh, [{"x0", "x1", "x2"}, {}]>
module attributes {mhlo.num_partitions = 8 : i32} {
  func.func @mesh_2x4(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"},
                      %arg1: tensor<16x32xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"},
                      %arg2: tensor<8x32xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"},
                      %arg3: tensor<8x32xf32> {mhlo.sharding = "{devices=[4,2]0,4,1,5,2,6,3,7}"},
                      %arg4: tensor<8xf32> {mhlo.sharding = "{replicated}"},
                      %arg5: tensor<8xf32> {mhlo.sharding = "{maximal device=3}"}) -> tensor<8x32xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg2) {mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    return %0 : tensor<8x32xf32>
  }
}

// -----

// A mesh of 3 x 2 with the 3 major: the axes keep that order.
// CHECK: trellis.mesh @gspmd_mesh = <["x0"=3, "x1"=2]>
// CHECK-LABEL: func.func @mesh_3x2
// CHECK-SAME: #trellis.sharding<@gspmd_mesh, [{"x0"}, {"x1"}]>
// CHECK-SAME: #trellis.sharding<@gspmd_mesh, [{"x1"}, {}]>
func.func @mesh_3x2(%a: tensor<6x4xf32> {mhlo.sharding = "{devices=[3,2]<=[6]}"},
                    %b: tensor<6x4xf32> {mhlo.sharding = "{devices=[2,1,3]<=[3,2]T(1,0) last_tile_dim_replicate}"}) -> tensor<6x4xf32> {
  return %a : tensor<6x4xf32>
}

// -----

// Only replicated strings: no mesh, nothing to split.
// CHECK-NOT: trellis.mesh
// CHECK-LABEL: func.func @replicated
// CHECK-NOT: trellis.sharding
func.func @replicated(%a: tensor<4xf32> {mhlo.sharding = "{replicated}"}) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// 1024 devices: the axis order is read off the device list, not searched.
// CHECK: trellis.mesh @gspmd_mesh = <["x0"=2, "x1"=2, "x2"=2, "x3"=2, "x4"=2, "x5"=2, "x6"=2, "x7"=2, "x8"=2, "x9"=2]>
// CHECK-LABEL: func.func @large
// CHECK-SAME: [{"x5", "x6", "x7", "x8", "x9", "x0", "x1", "x2", "x3", "x4"}]
// CHECK-SAME: [{"x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x0"}]
func.func @large(%a: tensor<1024xf32> {mhlo.sharding = "{devices=[1024]<=[32,32]T(1,0)}"},
                 %b: tensor<1024xf32> {mhlo.sharding = "{devices=[1024]<=[2,512]T(1,0)}"}) -> tensor<1024xf32> {
  return %a : tensor<1024xf32>
}
