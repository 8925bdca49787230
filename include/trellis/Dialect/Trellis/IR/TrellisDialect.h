//===- TrellisDialect.h - The global-view sharding dialect ------*- C++ -*-===//
//
// Declares the `trellis` dialect, its enums (mesh axis types) and its
// attributes (dimension shardings, partition specs, shardings).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_DIALECT_TRELLIS_IR_TRELLISDIALECT_H
#define TRELLIS_DIALECT_TRELLIS_IR_TRELLISDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TensorEncoding.h"

#include "trellis/Dialect/Trellis/IR/TrellisDialect.h.inc"
#include "trellis/Dialect/Trellis/IR/TrellisEnums.h.inc"

#include "trellis/Dialect/Trellis/IR/TrellisInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "trellis/Dialect/Trellis/IR/TrellisAttrs.h.inc"

#endif // TRELLIS_DIALECT_TRELLIS_IR_TRELLISDIALECT_H
