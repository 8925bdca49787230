//===- TrellisDialect.h - The global-view sharding dialect ------*- C++ -*-===//
//
// Declares the `trellis` dialect, its enums (mesh axis types) and its
// attributes (dimension shardings, partition specs, shardings).
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_TRELLIS_IR_TRELLISDIALECT_H
#define DIALECTS_TRELLIS_IR_TRELLISDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TensorEncoding.h"

#include "dialects/trellis/IR/TrellisDialect.h.inc"
#include "dialects/trellis/IR/TrellisEnums.h.inc"

#include "dialects/trellis/IR/TrellisInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/trellis/IR/TrellisAttrs.h.inc"

#endif // DIALECTS_TRELLIS_IR_TRELLISDIALECT_H
