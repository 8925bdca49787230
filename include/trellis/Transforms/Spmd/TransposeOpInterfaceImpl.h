//===- TransposeOpInterfaceImpl.h - Upstream ops' transposes ----*- C++ -*-===//
//
// The TransposeOpInterface models of the upstream ops spmd-transpose
// handles (arith, tensor and linalg). registerTrellisDialects attaches them,
// so any tool or pass built on a Trellis registry can ask an upstream op for
// its transpose; spmd-transpose also declares them as its dependency.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_TRANSFORMS_SPMD_TRANSPOSEOPINTERFACEIMPL_H
#define TRELLIS_TRANSFORMS_SPMD_TRANSPOSEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;

namespace spmd {
/// Attaches TransposeOpInterface to arith's add, sub, neg, mul and divf,
/// tensor's extract_slice, insert_slice, expand_shape, collapse_shape and
/// concat, and linalg's transpose, broadcast, reduce and copy.
void registerTransposeOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace spmd
} // namespace mlir

#endif // TRELLIS_TRANSFORMS_SPMD_TRANSPOSEOPINTERFACEIMPL_H
