//===- HostArray.cpp - Arrays on the host, element access -----------------===//

#include "lib/Execution/HostArray.h"
#include "lib/Runtime/Runtime.h"
#include "lib/Runtime/TrellisRuntime.h"

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

static float halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else { // subnormal
      exp = 127 - 15 + 1;
      while (!(mant & 0x400)) {
        mant <<= 1;
        --exp;
      }
      mant &= 0x3ff;
      bits = sign | (exp << 23) | (mant << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

static uint16_t floatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint32_t sign = (bits >> 16) & 0x8000u;
  int32_t exp = static_cast<int32_t>((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mant = bits & 0x7fffffu;
  if (((bits >> 23) & 0xff) == 0xff)
    return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0));
  if (exp >= 31)
    return static_cast<uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10)
      return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = mant >> shift;
    if ((mant >> (shift - 1)) & 1)
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  if (mant & 0x1000u)
    ++half;
  return static_cast<uint16_t>(half);
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
  case TRELLIS_RT_BF16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    uint32_t bits = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  case TRELLIS_RT_F16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return halfToFloat(h);
  }
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
  case TRELLIS_RT_BF16: {
    float f = static_cast<float>(value);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    uint16_t h =
        static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
    std::memcpy(p, &h, 2);
    return;
  }
  case TRELLIS_RT_F16: {
    uint16_t h = floatToHalf(static_cast<float>(value));
    std::memcpy(p, &h, 2);
    return;
  }
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
