//===- HostArray.cpp - Arrays on the host, element access -----------------===//

#include "lib/Execution/HostArray.h"
#include "lib/Runtime/Runtime.h"
#include "lib/Runtime/TrellisRuntime.h"

#include "llvm/ADT/APFloat.h"

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
  return dtype == TRELLIS_RT_F32 || dtype == TRELLIS_RT_F64 ||
         dtype == TRELLIS_RT_BF16 || dtype == TRELLIS_RT_F16;
}

/// A 16-bit float of `semantics` (bf16 or f16), widened exactly.
static double widen16(const llvm::fltSemantics &semantics, const char *p) {
  uint16_t bits;
  std::memcpy(&bits, p, 2);
  return llvm::APFloat(semantics, llvm::APInt(16, bits)).convertToDouble();
}

/// `value` rounded to f32, then to the 16-bit `semantics` with `mode`: bf16
/// rounds to nearest even, f16 to nearest with ties away from zero (what
/// trellis-run has always written; numpy's astype rounds ties to even).
static void narrow16(const llvm::fltSemantics &semantics,
                     llvm::RoundingMode mode, double value, char *p) {
  llvm::APFloat f(static_cast<float>(value));
  bool losesInfo;
  f.convert(semantics, mode, &losesInfo);
  uint16_t bits = static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue());
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
    return widen16(llvm::APFloat::BFloat(), p);
  case TRELLIS_RT_F16:
    return widen16(llvm::APFloat::IEEEhalf(), p);
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
    narrow16(llvm::APFloat::BFloat(), llvm::RoundingMode::NearestTiesToEven,
             value, p);
    return;
  case TRELLIS_RT_F16:
    narrow16(llvm::APFloat::IEEEhalf(), llvm::RoundingMode::NearestTiesToAway,
             value, p);
    return;
  default:
    return;
  }
}

std::string mlir::trellis::exec::npyDescr(int32_t dtype) {
  switch (dtype) {
  case TRELLIS_RT_F32:
    return "<f4";
  case TRELLIS_RT_F64:
    return "<f8";
  case TRELLIS_RT_F16:
    return "<f2";
  case TRELLIS_RT_I32:
    return "<i4";
  case TRELLIS_RT_I64:
    return "<i8";
  case TRELLIS_RT_I16:
    return "<i2";
  case TRELLIS_RT_I8:
    return "|i1";
  case TRELLIS_RT_I1:
    return "|b1";
  case TRELLIS_RT_BF16:
    return "<V2"; // numpy has no bfloat16; raw 2-byte values
  default:
    return "";
  }
}

std::string mlir::trellis::exec::numpyName(int32_t dtype) {
  switch (dtype) {
  case TRELLIS_RT_F32:
    return "float32";
  case TRELLIS_RT_F64:
    return "float64";
  case TRELLIS_RT_F16:
    return "float16";
  case TRELLIS_RT_BF16:
    return "bfloat16";
  case TRELLIS_RT_I32:
    return "int32";
  case TRELLIS_RT_I64:
    return "int64";
  case TRELLIS_RT_I16:
    return "int16";
  case TRELLIS_RT_I8:
    return "int8";
  case TRELLIS_RT_I1:
    return "bool";
  default:
    return "unknown";
  }
}

std::string
mlir::trellis::exec::npyShapeText(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += std::to_string(shape[i]) +
            (shape.size() == 1 ? "," : (i + 1 < shape.size() ? ", " : ""));
  return text + ")";
}
