//===- Inlining.h - Inliner interface shared by Trellis dialects -*- C++
//-*-===//
//
// Every op of the trellis and spmd dialects may be inlined: calls are
// inlined before propagation and partitioning, which work within one
// function.
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_TRELLIS_IR_INLINING_H
#define DIALECTS_TRELLIS_IR_INLINING_H

#include "mlir/Transforms/InliningUtils.h"

namespace mlir::trellis {

struct InlineEverything : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};

} // namespace mlir::trellis

#endif // DIALECTS_TRELLIS_IR_INLINING_H
