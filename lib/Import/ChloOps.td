//===- ChloOps.td - The CHLO subset the importer reads ------*- tablegen -*-===//
//
// Written from the public CHLO op descriptions: the "client" ops JAX prints
// beside StableHLO for functions StableHLO has no op for. Import-only, like
// StablehloOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_IMPORT_CHLO_OPS_TD
#define TRELLIS_IMPORT_CHLO_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Chlo_Dialect : Dialect {
  let name = "chlo";
  let cppNamespace = "::mlir::trellis::chlo";
  let summary = "Import-only subset of CHLO";
}

// `chlo.erf %x : tensor<4xf32> -> tensor<4xf32>`
class Chlo_UnaryOp<string mnemonic>
    : Op<Chlo_Dialect, mnemonic, [Pure]> {
  let arguments = (ins RankedTensorOf<[AnyFloat]>:$operand);
  let results = (outs RankedTensorOf<[AnyFloat]>:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

def Chlo_ErfOp : Chlo_UnaryOp<"erf">;
def Chlo_TanOp : Chlo_UnaryOp<"tan">;

// `%v, %i = chlo.top_k(%x, k = 2) : tensor<8x16xf32> -> (tensor<8x2xf32>,
// tensor<8x2xi32>)`: the k largest elements along the last dimension, in
// descending order (floats in total order: NaN above +inf, -0 below +0),
// equal ones by ascending index, with their indices (`jax.lax.top_k`).
def Chlo_TopKOp : Op<Chlo_Dialect, "top_k", [Pure]> {
  let arguments = (ins AnyRankedTensor:$operand, I64Attr:$k,
                       OptionalAttr<BoolAttr>:$largest);
  let results = (outs AnyRankedTensor:$values, AnyRankedTensor:$indices);
  let assemblyFormat = [{
    `(` $operand `,` `k` `=` $k `)` attr-dict `:` type($operand) `->`
    `(` type($values) `,` type($indices) `)`
  }];
}

#endif // TRELLIS_IMPORT_CHLO_OPS_TD
