//===- ImportDialects.h - Import-only StableHLO, CHLO, Shardy ---*- C++ -*-===//
//
// The subsets of StableHLO, CHLO and Shardy that trellis-import-stablehlo
// reads, written here from their public specifications. They are registered
// only by Trellis's own tools (registerImportDialects), never by
// registerAllDialects.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_IMPORT_IMPORTDIALECTS_H
#define TRELLIS_LIB_IMPORT_IMPORTDIALECTS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::trellis {
/// Parses `: (operand types) -> result types`, resolves `operands` with the
/// operand types and adds the result types to `result`.
ParseResult
parseFunctionalTypeOf(OpAsmParser &parser,
                      ArrayRef<OpAsmParser::UnresolvedOperand> operands,
                      OperationState &result);

/// Parses the `dims` custom directive: `[0, 1]`.
ParseResult parseDims(OpAsmParser &parser, DenseI64ArrayAttr &dims);

/// Prints `[0, 1]`.
void printIntList(AsmPrinter &printer, ArrayRef<int64_t> values);
} // namespace mlir::trellis

#include "lib/Import/StablehloEnums.h.inc"

#include "lib/Import/StablehloDialect.h.inc"
#define GET_ATTRDEF_CLASSES
#include "lib/Import/StablehloAttrs.h.inc"

namespace mlir::trellis {
/// The convolution's custom directives (StablehloConvolution.cpp):
/// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` and the window's fields
/// `stride = [..], pad = [[lo, hi], ..], lhs_dilate = [..], rhs_dilate =
/// [..], reverse = [..]` (each optional, in any order).
ParseResult parseConvDimensions(AsmParser &parser,
                                hlo::ConvDimensionNumbersAttr &attr);
void printConvDimensions(AsmPrinter &printer, Operation *,
                         hlo::ConvDimensionNumbersAttr attr);
ParseResult parseWindowAttributes(OpAsmParser &parser,
                                  DenseI64ArrayAttr &strides,
                                  DenseIntElementsAttr &padding,
                                  DenseI64ArrayAttr &lhsDilation,
                                  DenseI64ArrayAttr &rhsDilation,
                                  DenseBoolArrayAttr &reversal);
void printWindowAttributes(OpAsmPrinter &printer, Operation *,
                           DenseI64ArrayAttr strides,
                           DenseIntElementsAttr padding,
                           DenseI64ArrayAttr lhsDilation,
                           DenseI64ArrayAttr rhsDilation,
                           DenseBoolArrayAttr reversal);
} // namespace mlir::trellis

#define GET_OP_CLASSES
#include "lib/Import/StablehloOps.h.inc"

#include "lib/Import/ChloDialect.h.inc"
#define GET_OP_CLASSES
#include "lib/Import/ChloOps.h.inc"

#include "lib/Import/SdyDialect.h.inc"
#define GET_ATTRDEF_CLASSES
#include "lib/Import/SdyAttrs.h.inc"
#define GET_OP_CLASSES
#include "lib/Import/SdyOps.h.inc"

#endif // TRELLIS_LIB_IMPORT_IMPORTDIALECTS_H
