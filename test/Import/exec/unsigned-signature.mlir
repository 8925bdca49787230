// Unsigned arguments and results, as JAX prints a uint8 image batch: the
// arguments hold the caller's bits as signless integers read as unsigned;
// a result keeps every value by widening to the signed type twice as
// wide (Trellis has no unsigned types), with a warning. Both used to be
// errors ("unsigned arguments are not supported yet").
// RUN: trellis-opt %s --trellis-import-stablehlo 2>&1 | FileCheck %s --check-prefix=IR
// RUN: rm -rf %t && trellis-run %s --random 2 --reference --save-inputs --output-dir %t --quiet 2>&1 | FileCheck %s
// RUN: %python %S/check_jax_forms.py unsigned %t | FileCheck %s --check-prefix=NP
// A uint8 .npy (values past 127) is read bit for bit into the argument:
// RUN: %python -c "import numpy as np; np.save('%t/img.npy', (np.arange(32, dtype=np.uint16) * 9 %% 256).astype(np.uint8).reshape(4, 8))"
// RUN: trellis-run %s --input arg0=%t/img.npy --reference --save-inputs --output-dir %t/npy --quiet 2>&1 | FileCheck %s
// RUN: %python %S/check_jax_forms.py unsigned %t/npy | FileCheck %s --check-prefix=NP
// IR: warning: result #1 ('tensor<4x8xui8>') is returned as 'tensor<4x8xi16>', which holds its values: Trellis has no unsigned types
// IR: func.func public @main(%{{.*}}: tensor<4x8xi8> {{.*}}) -> (tensor<4xf32>, tensor<4x8xi16>, tensor<4x8xi16>)
// IR: arith.uitofp
// IR: arith.extui
// CHECK-COUNT-3: match
// NP: unsigned: 3 results equal numpy
module @jit_f attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["b"=2]>
  func.func public @main(%arg0: tensor<4x8xui8> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> (tensor<4xf32>, tensor<4x8xui8>, tensor<4x8xui8>) {
    %0 = stablehlo.convert %arg0 : (tensor<4x8xui8>) -> tensor<4x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    %c = stablehlo.constant dense<100> : tensor<4x8xui8>
    %2 = stablehlo.add %arg0, %c : tensor<4x8xui8>
    %c128 = stablehlo.constant dense<128> : tensor<4x8xui8>
    %3 = stablehlo.maximum %arg0, %c128 : tensor<4x8xui8>
    return %1, %2, %3 : tensor<4xf32>, tensor<4x8xui8>, tensor<4x8xui8>
  }
}
