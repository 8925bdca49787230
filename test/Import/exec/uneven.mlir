// A sharding that does not divide its dimension in GSPMD form, as JAX
// printed it before Shardy: 30 rows over 4 devices
// (`{devices=[4,1]<=[4]}`). The importer rejected it ("uneven dimensions
// are not supported yet"); the partitioner now pads it (blocks of 8, the
// last with 2 rows of padding) and the program matches the unpartitioned
// one. The Shardy form: examples/jax/attention_30_heads.mlir.
// RUN: trellis-opt %s --trellis-import-stablehlo --trellis-global-to-manual | FileCheck %s
// RUN: trellis-run %s --random 1 --reference --quiet | FileCheck %s --check-prefix=EXEC
// CHECK-LABEL: func.func public @main
// CHECK: tensor.extract_slice %{{.*}} [8, 8] [1, 1] : tensor<32x8xf32> to tensor<8x8xf32>
// CHECK: math.exp %{{.*}} : tensor<8x8xf32>
// EXEC: reference: out0 (float32[30,8], 4 devices vs 1): match
module @jit_f attributes {mhlo.num_partitions = 4 : i32} {
  func.func public @main(%arg0: tensor<30x8xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<30x8xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) {
    %0 = stablehlo.exponential %arg0 : tensor<30x8xf32>
    return %0 : tensor<30x8xf32>
  }
}
