//===- MpiTypes.cpp - MPI types and reductions of runtime dtypes ----------===//

#include "lib/Runtime/MpiTypes.h"

#include "lib/Runtime/CollectiveKernels.h"
#include "trellis/Runtime/TrellisRuntime.h"

using namespace mlir::trellis::rt;

MPI_Datatype mlir::trellis::rt::mpiType(int32_t dtype) {
  switch (dtype) {
  case TRELLIS_RT_F32:
    return MPI_FLOAT;
  case TRELLIS_RT_F64:
    return MPI_DOUBLE;
  case TRELLIS_RT_I32:
    return MPI_INT32_T;
  case TRELLIS_RT_I64:
    return MPI_INT64_T;
  case TRELLIS_RT_I16:
    return MPI_INT16_T;
  case TRELLIS_RT_I8:
    return MPI_INT8_T;
  default:
    return MPI_DATATYPE_NULL;
  }
}

namespace {

/// MPI leaves NaN and signed zeros in MPI_MAX/MPI_MIN to the
/// implementation: float max/min are user-defined ops running the runtime's
/// kernel (arith.maximumf/minimumf: NaN propagates, -0 < +0).
template <int32_t Reduction>
void floatMaxMin(void *in, void *inout, int *len, MPI_Datatype *type) {
  const int32_t dtype = *type == MPI_DOUBLE ? TRELLIS_RT_F64 : TRELLIS_RT_F32;
  reduceBlocks(dtype, Reduction, {inout, in}, 0, *len, inout);
}

MPI_Op floatOp(int32_t reduction) {
  static MPI_Op maxOp = [] {
    MPI_Op op;
    MPI_Op_create(&floatMaxMin<TRELLIS_RT_MAX>, /*commute=*/1, &op);
    return op;
  }();
  static MPI_Op minOp = [] {
    MPI_Op op;
    MPI_Op_create(&floatMaxMin<TRELLIS_RT_MIN>, /*commute=*/1, &op);
    return op;
  }();
  return reduction == TRELLIS_RT_MAX ? maxOp : minOp;
}

} // namespace

MPI_Op mlir::trellis::rt::mpiOp(int32_t dtype, int32_t reduction) {
  const bool isFloat = dtype == TRELLIS_RT_F32 || dtype == TRELLIS_RT_F64;
  switch (reduction) {
  case TRELLIS_RT_SUM:
    return MPI_SUM;
  case TRELLIS_RT_MAX:
    return isFloat ? floatOp(reduction) : MPI_MAX;
  case TRELLIS_RT_MIN:
    return isFloat ? floatOp(reduction) : MPI_MIN;
  default: // MEAN: the runtime's own kernel, so results match in-process
    return MPI_OP_NULL;
  }
}
