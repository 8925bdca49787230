//===- TypeNames.cpp - Element types and collective kinds -----------------===//

#include "trellis/Runtime/Runtime.h"
#include "trellis/Runtime/TrellisRuntime.h"

using namespace mlir::trellis::rt;

int64_t mlir::trellis::rt::dtypeSize(int32_t dtype) {
  switch (dtype) {
#define TRELLIS_RT_DTYPE(NAME, VALUE, MLIR, BYTES, IS_FLOAT, NUMPY, NPY_DESCR) \
  case TRELLIS_RT_##NAME:                                                      \
    return BYTES;
#include "trellis/Runtime/TrellisDtypes.def"
  default:
    return 0;
  }
}

const char *mlir::trellis::rt::dtypeName(int32_t dtype) {
  switch (dtype) {
#define TRELLIS_RT_DTYPE(NAME, VALUE, MLIR, BYTES, IS_FLOAT, NUMPY, NPY_DESCR) \
  case TRELLIS_RT_##NAME:                                                      \
    return MLIR;
#include "trellis/Runtime/TrellisDtypes.def"
  default:
    return "unknown";
  }
}

const char *mlir::trellis::rt::kindName(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::AllReduce:
    return "all_reduce";
  case CollectiveKind::AllGather:
    return "all_gather";
  case CollectiveKind::ReduceScatter:
    return "reduce_scatter";
  case CollectiveKind::AllToAll:
    return "all_to_all";
  case CollectiveKind::Ppermute:
    return "ppermute";
  }
  return "collective";
}
