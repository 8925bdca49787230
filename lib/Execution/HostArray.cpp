//===- HostArray.cpp - Arrays on the host, element access -----------------===//

#include "trellis/Execution/HostArray.h"
#include "lib/Runtime/Float16.h"
#include "trellis/Runtime/Runtime.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir::trellis::exec;

//===----------------------------------------------------------------------===//
// HostArray
//===----------------------------------------------------------------------===//

int64_t HostArray::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int64_t HostArray::elementBytes() const {
  return mlir::trellis::rt::dtypeSize(dtype);
}

void HostArray::allocate(int32_t type, std::vector<int64_t> dims) {
  dtype = type;
  shape = std::move(dims);
  data.assign(numElements() * elementBytes(), 0);
}

bool HostArray::isFloat() const {
  switch (dtype) {
#define TRELLIS_RT_DTYPE(NAME, VALUE, MLIR, BYTES, IS_FLOAT, NUMPY, NPY_DESCR) \
  case TRELLIS_RT_##NAME:                                                      \
    return IS_FLOAT;
#include "trellis/Runtime/TrellisDtypes.def"
  default:
    return false;
  }
}

/// The 16-bit float at `p`, widened exactly.
static double widen16(float (*widen)(uint16_t), const char *p) {
  uint16_t bits;
  std::memcpy(&bits, p, 2);
  return widen(bits);
}

/// `value` rounded to f32, then to 16 bits to nearest even (as numpy's
/// astype and arith.truncf).
static void narrow16(uint16_t (*narrow)(float), double value, char *p) {
  uint16_t bits = narrow(static_cast<float>(value));
  std::memcpy(p, &bits, 2);
}

double HostArray::at(int64_t i) const {
  const char *p = data.data() + i * elementBytes();
  switch (dtype) {
  case TRELLIS_RT_F32: {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case TRELLIS_RT_F64: {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  case TRELLIS_RT_I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case TRELLIS_RT_I64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return static_cast<double>(v);
  }
  case TRELLIS_RT_I16: {
    int16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case TRELLIS_RT_I8:
    return static_cast<int8_t>(*p);
  case TRELLIS_RT_I1:
    return *p ? 1 : 0;
  case TRELLIS_RT_BF16:
    return widen16(rt::bf16ToFloat, p);
  case TRELLIS_RT_F16:
    return widen16(rt::halfToFloat, p);
  default:
    return 0;
  }
}

void HostArray::set(int64_t i, double value) {
  char *p = data.data() + i * elementBytes();
  switch (dtype) {
  case TRELLIS_RT_F32: {
    float v = static_cast<float>(value);
    std::memcpy(p, &v, 4);
    return;
  }
  case TRELLIS_RT_F64:
    std::memcpy(p, &value, 8);
    return;
  case TRELLIS_RT_I32: {
    int32_t v = static_cast<int32_t>(value);
    std::memcpy(p, &v, 4);
    return;
  }
  case TRELLIS_RT_I64: {
    int64_t v = static_cast<int64_t>(value);
    std::memcpy(p, &v, 8);
    return;
  }
  case TRELLIS_RT_I16: {
    int16_t v = static_cast<int16_t>(value);
    std::memcpy(p, &v, 2);
    return;
  }
  case TRELLIS_RT_I8:
    *p = static_cast<char>(static_cast<int8_t>(value));
    return;
  case TRELLIS_RT_I1:
    *p = value != 0;
    return;
  case TRELLIS_RT_BF16:
    narrow16(rt::floatToBf16, value, p);
    return;
  case TRELLIS_RT_F16:
    narrow16(rt::floatToHalf, value, p);
    return;
  default:
    return;
  }
}

std::string mlir::trellis::exec::npyDescr(int32_t dtype) {
  switch (dtype) {
#define TRELLIS_RT_DTYPE(NAME, VALUE, MLIR, BYTES, IS_FLOAT, NUMPY, NPY_DESCR) \
  case TRELLIS_RT_##NAME:                                                      \
    return NPY_DESCR;
#include "trellis/Runtime/TrellisDtypes.def"
  default:
    return "";
  }
}

std::string mlir::trellis::exec::numpyName(int32_t dtype) {
  switch (dtype) {
#define TRELLIS_RT_DTYPE(NAME, VALUE, MLIR, BYTES, IS_FLOAT, NUMPY, NPY_DESCR) \
  case TRELLIS_RT_##NAME:                                                      \
    return NUMPY;
#include "trellis/Runtime/TrellisDtypes.def"
  default:
    return "unknown";
  }
}

std::string
mlir::trellis::exec::npyShapeText(const std::vector<int64_t> &shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '(';
  llvm::interleaveComma(shape, os);
  if (shape.size() == 1)
    os << ','; // a Python 1-tuple
  os << ')';
  return text;
}
