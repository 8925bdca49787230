//===- SpmdDialect.h - Per-device programs and collectives ------*- C++ -*-===//

#ifndef DIALECTS_SPMD_IR_SPMDDIALECT_H
#define DIALECTS_SPMD_IR_SPMDDIALECT_H

#include "dialects/trellis/IR/TrellisDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/spmd/IR/SpmdDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/spmd/IR/SpmdAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/spmd/IR/SpmdTypes.h.inc"

namespace mlir::spmd {

/// The resource that collectives read and write: communication between
/// devices. It keeps passes from deleting, merging or moving collectives
/// into control flow that devices may take differently.
struct CommunicationResource
    : public SideEffects::Resource::Base<CommunicationResource> {
  StringRef getName() final { return "spmd.communication"; }
};

/// The `#spmd.vary` encoding of `type`, or null.
VaryAttr getVaryEncoding(Type type);

/// `type` without its `#spmd.vary` encoding, also inside a future (other
/// types unchanged).
Type stripVaryEncoding(Type type);

} // namespace mlir::spmd

#endif // DIALECTS_SPMD_IR_SPMDDIALECT_H
