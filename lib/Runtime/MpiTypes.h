//===- MpiTypes.h - MPI types and reductions of runtime dtypes --*- C++ -*-===//
//
// What MPI calls a runtime element type (TRELLIS_RT_*) and reduction, for
// the collectives MPI can run itself. Built only with MPI.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_RUNTIME_MPITYPES_H
#define TRELLIS_LIB_RUNTIME_MPITYPES_H

#include <mpi.h>

#include <cstdint>

namespace mlir::trellis::rt {

/// MPI's type for element-wise reductions of `dtype`, or null when the
/// runtime reduces it itself (f16, bf16, bool).
MPI_Datatype mpiType(int32_t dtype);

/// MPI's op for `reduction` of `dtype`, or null when the runtime reduces
/// it itself (mean).
MPI_Op mpiOp(int32_t dtype, int32_t reduction);

} // namespace mlir::trellis::rt

#endif // TRELLIS_LIB_RUNTIME_MPITYPES_H
