// An XLA round trip has no file location at all: the module, functions and
// returns are at loc(unknown), arguments at bare names. An error about a
// module attribute names the attribute (the fuzzer found it reported at
// no location).
// RUN: not trellis-opt %s --trellis-import-stablehlo 2>&1 | FileCheck %s
// CHECK: error: loc("module attribute xla.sdy.meshes"): cannot read Shardy round-trip attribute 'xla.sdy.meshes': {mesh = #sdy.mesh<[Ddata"=8]>}
module @jit_h attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[Ddata\22=8]>}"}} {
  func.func @main(%arg0: tensor<8xf32> loc("Arg_0.1")) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
