//===- TypeNames.cpp - Element types and collective kinds -----------------===//

#include "lib/Runtime/Runtime.h"
#include "lib/Runtime/TrellisRuntime.h"

using namespace mlir::trellis::rt;

int64_t mlir::trellis::rt::dtypeSize(int32_t dtype) {
  switch (dtype) {
  case TRELLIS_RT_F32:
  case TRELLIS_RT_I32:
    return 4;
  case TRELLIS_RT_F64:
  case TRELLIS_RT_I64:
    return 8;
  case TRELLIS_RT_BF16:
  case TRELLIS_RT_F16:
  case TRELLIS_RT_I16:
    return 2;
  case TRELLIS_RT_I8:
  case TRELLIS_RT_I1:
    return 1;
  default:
    return 0;
  }
}

const char *mlir::trellis::rt::dtypeName(int32_t dtype) {
  switch (dtype) {
  case TRELLIS_RT_F32:
    return "f32";
  case TRELLIS_RT_F64:
    return "f64";
  case TRELLIS_RT_I32:
    return "i32";
  case TRELLIS_RT_I64:
    return "i64";
  case TRELLIS_RT_BF16:
    return "bf16";
  case TRELLIS_RT_F16:
    return "f16";
  case TRELLIS_RT_I8:
    return "i8";
  case TRELLIS_RT_I16:
    return "i16";
  case TRELLIS_RT_I1:
    return "i1";
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
