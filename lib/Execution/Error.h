//===- Error.h - Errors of the execution library ----------------*- C++ -*-===//
//
// The execution library reports failures as llvm::Error (or llvm::Expected)
// carrying the text trellis-run prints after "trellis-run: error: ".
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_EXECUTION_ERROR_H
#define TRELLIS_LIB_EXECUTION_ERROR_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace mlir::trellis::exec {

/// An error whose message is `message`.
inline llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace mlir::trellis::exec

#endif // TRELLIS_LIB_EXECUTION_ERROR_H
