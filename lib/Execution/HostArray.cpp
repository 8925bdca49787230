//===- HostArray.cpp - Arrays on the host: npy I/O, printing --------------===//

#include "lib/Execution/HostArray.h"
#include "lib/Runtime/Runtime.h"
#include "lib/Runtime/TrellisRuntime.h"

#include "llvm/Support/MathExtras.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

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

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

/// numpy's text of a shape: (2, 3), (4,), ().
static std::string formatShape(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += std::to_string(shape[i]) +
            (shape.size() == 1 ? "," : (i + 1 < shape.size() ? ", " : ""));
  return text + ")";
}

/// Reads a .npy header from `in` (positioned at the start of the file),
/// leaving `in` at the first data byte.
static bool readNpyHeader(std::ifstream &in, const std::string &path,
                          int32_t &dtypeOut, std::vector<int64_t> &shape,
                          std::string &error) {
  if (!in) {
    error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0) {
    error = "'" + path + "' is not a .npy file (bad magic string)";
    return false;
  }
  int major = static_cast<unsigned char>(magic[6]);
  uint32_t headerLen = 0;
  if (major == 1) {
    unsigned char len[2];
    if (!in.read(reinterpret_cast<char *>(len), 2)) {
      error = "'" + path + "': truncated header";
      return false;
    }
    headerLen = len[0] | (len[1] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char len[4];
    if (!in.read(reinterpret_cast<char *>(len), 4)) {
      error = "'" + path + "': truncated header";
      return false;
    }
    headerLen =
        len[0] | (len[1] << 8) | (len[2] << 16) | (uint32_t(len[3]) << 24);
  } else {
    error = "'" + path + "': unsupported .npy version " + std::to_string(major);
    return false;
  }
  if (headerLen > (1u << 20)) {
    error = "'" + path + "': header too large";
    return false;
  }
  std::string header(headerLen, '\0');
  if (!in.read(header.data(), headerLen)) {
    error = "'" + path + "': truncated header";
    return false;
  }
  auto field = [&](const std::string &key) -> std::string {
    size_t pos = header.find("'" + key + "'");
    if (pos == std::string::npos)
      return "";
    pos = header.find(':', pos);
    if (pos == std::string::npos)
      return "";
    ++pos;
    while (pos < header.size() && header[pos] == ' ')
      ++pos;
    if (pos >= header.size())
      return "";
    if (header[pos] == '\'') {
      size_t end = header.find('\'', pos + 1);
      return end == std::string::npos ? ""
                                      : header.substr(pos + 1, end - pos - 1);
    }
    if (header[pos] == '(') {
      size_t end = header.find(')', pos);
      return end == std::string::npos ? "" : header.substr(pos, end - pos + 1);
    }
    size_t end = header.find_first_of(",}", pos);
    return header.substr(pos, end - pos);
  };
  std::string descr = field("descr"), order = field("fortran_order"),
              shapeText = field("shape");
  if (descr.empty() || shapeText.empty()) {
    error = "'" + path + "': malformed header: " + header;
    return false;
  }
  if (order == "True") {
    error = "'" + path +
            "': Fortran-order arrays are not supported (save "
            "with np.ascontiguousarray)";
    return false;
  }
  if (order != "False") {
    error = "'" + path +
            "': malformed header: 'fortran_order' must be True "
            "or False, got '" +
            order + "'";
    return false;
  }
  int32_t dtype = -1;
  for (int32_t t :
       {TRELLIS_RT_F32, TRELLIS_RT_F64, TRELLIS_RT_F16, TRELLIS_RT_I32,
        TRELLIS_RT_I64, TRELLIS_RT_I16, TRELLIS_RT_I8, TRELLIS_RT_I1}) {
    std::string d = npyDescr(t);
    if (descr == d || (d[0] == '<' && descr == "=" + d.substr(1)) ||
        (d[0] == '|' && descr == d.substr(1)))
      dtype = t;
  }
  // bfloat16: numpy has no such type, and np.save of an ml_dtypes.bfloat16
  // array writes raw 2-byte values ('<V2'; '|V2' from a plain numpy void
  // view). trellis-run writes '<V2' too and reads both as bf16.
  if (descr == "<V2" || descr == "|V2" || descr == "=V2" || descr == "V2")
    dtype = TRELLIS_RT_BF16;
  if (dtype < 0) {
    error = "'" + path + "': unsupported dtype '" + descr +
            "' (supported: float32/64/16, bfloat16 as '<V2', int8/16/32/64, "
            "bool, little endian)";
    return false;
  }
  dtypeOut = dtype;
  shape.clear();
  std::string dims = shapeText.substr(1, shapeText.size() - 2);
  std::stringstream ss(dims);
  std::string item;
  int64_t bytes = mlir::trellis::rt::dtypeSize(dtype);
  while (std::getline(ss, item, ',')) {
    size_t b = item.find_first_not_of(' ');
    if (b == std::string::npos)
      continue;
    size_t e = item.find_last_not_of(' ');
    std::string digits = item.substr(b, e - b + 1);
    int64_t v = 0;
    bool ok = !digits.empty() && digits.size() <= 18 &&
              digits.find_first_not_of("0123456789") == std::string::npos;
    if (ok)
      v = std::stoll(digits);
    if (!ok) {
      error = "'" + path + "': malformed dimension '" + digits + "' in shape " +
              shapeText;
      return false;
    }
    if (llvm::MulOverflow(bytes, v, bytes)) {
      error = "'" + path + "': shape " + shapeText + " is too large";
      return false;
    }
    shape.push_back(v);
  }
  // The data must be exactly what the header describes: checked before
  // anything is allocated, so a header claiming terabytes fails cleanly.
  const std::streamoff dataStart = in.tellg();
  in.seekg(0, std::ios::end);
  const std::streamoff fileEnd = in.tellg();
  in.seekg(dataStart);
  if (!in || dataStart < 0 || fileEnd < dataStart) {
    error = "'" + path + "': cannot determine the file's size";
    return false;
  }
  const int64_t have = static_cast<int64_t>(fileEnd - dataStart);
  if (have < bytes) {
    error = "'" + path + "': expected " + std::to_string(bytes) +
            " bytes of data for shape " + formatShape(shape) +
            ", the file is shorter";
    return false;
  }
  if (have > bytes) {
    error = "'" + path + "': " + std::to_string(have - bytes) +
            " bytes follow the " + std::to_string(bytes) +
            " bytes of data for shape " + formatShape(shape);
    return false;
  }
  return true;
}

bool mlir::trellis::exec::readNpy(const std::string &path, HostArray &array,
                                  std::string &error) {
  std::ifstream in(path, std::ios::binary);
  int32_t dtype;
  std::vector<int64_t> shape;
  if (!readNpyHeader(in, path, dtype, shape, error))
    return false;
  std::string shapeText = formatShape(shape);
  array.allocate(dtype, shape);
  if (!in.read(array.data.data(), array.data.size()) ||
      in.gcount() != static_cast<std::streamsize>(array.data.size())) {
    error = "'" + path + "': expected " + std::to_string(array.data.size()) +
            " bytes of data for shape " + shapeText + ", the file is shorter";
    return false;
  }
  return true;
}

bool mlir::trellis::exec::readNpyBlock(const std::string &path,
                                       const NpyBlock &want, HostArray &block,
                                       std::string &error) {
  std::ifstream in(path, std::ios::binary);
  int32_t dtype;
  std::vector<int64_t> shape;
  if (!readNpyHeader(in, path, dtype, shape, error))
    return false;
  if (dtype != want.dtype || shape != want.globalShape) {
    error = "'" + path + "' holds " + numpyName(dtype) + formatShape(shape) +
            " but " + want.what + " is " + numpyName(want.dtype) +
            formatShape(want.globalShape);
    return false;
  }
  const std::streamoff dataStart = in.tellg();
  block.allocate(dtype, want.blockShape);
  // readNpyHeader checked that the data is exactly as long as the shape.
  const int64_t elem = block.elementBytes();
  // Read one contiguous run per index of the block's leading dimensions.
  const size_t rank = shape.size();
  if (rank == 0) {
    in.seekg(dataStart);
    in.read(block.data.data(), elem);
    return static_cast<bool>(in);
  }
  const int64_t run = want.blockShape[rank - 1] * elem;
  std::vector<int64_t> index(rank, 0);
  int64_t runs = 1;
  for (size_t d = 0; d + 1 < rank; ++d)
    runs *= want.blockShape[d];
  for (int64_t r = 0; r < runs; ++r) {
    int64_t flat = 0;
    for (size_t d = 0; d < rank; ++d)
      flat = flat * shape[d] + want.offset[d] + index[d];
    in.seekg(dataStart + flat * elem);
    if (!in.read(block.data.data() + r * run, run)) {
      error = "'" + path + "': read failed";
      return false;
    }
    for (size_t d = rank - 1; d-- > 0;) {
      if (++index[d] < want.blockShape[d])
        break;
      index[d] = 0;
    }
  }
  return true;
}

bool mlir::trellis::exec::writeNpy(const std::string &path,
                                   const HostArray &array, std::string &error) {
  std::string shape = "(";
  for (size_t i = 0; i < array.shape.size(); ++i)
    shape +=
        std::to_string(array.shape[i]) +
        (array.shape.size() == 1 ? ","
                                 : (i + 1 < array.shape.size() ? ", " : ""));
  shape += ")";
  std::string header = "{'descr': '" + npyDescr(array.dtype) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  out.write("\x93NUMPY\x01\x00", 8);
  char len[2] = {static_cast<char>(header.size() & 0xff),
                 static_cast<char>((header.size() >> 8) & 0xff)};
  out.write(len, 2);
  out.write(header.data(), header.size());
  out.write(array.data.data(), array.data.size());
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

namespace {

/// Formats elements as numpy's default printing does (floatmode "maxprec"):
/// each float with the fewest decimals (at most 8) that show its value,
/// decimal points aligned; scientific notation when the magnitudes call for
/// it.
struct ElementFormatter {
  bool isFloat = false, isBool = false, scientific = false;
  int sciDecimals = 0;
  size_t padLeft = 0, padRight = 0; ///< fixed mode: chars before/after '.'
  size_t width = 0;                 ///< other modes

  bool single = false; ///< float32: digits that tell float32 values apart

  /// The fewest decimals (at most 8) that read back as the same value, at
  /// the precision of the array's element type (numpy's unique repr).
  int neededDecimals(double v) const {
    char buf[64];
    for (int d = 0; d < 8; ++d) {
      std::snprintf(buf, sizeof(buf), "%.*f", d, v);
      double back = std::strtod(buf, nullptr);
      if (single ? static_cast<float>(back) == static_cast<float>(v)
                 : back == v)
        return d;
    }
    std::snprintf(buf, sizeof(buf), "%.8f", v);
    std::string s = buf;
    size_t dot = s.find('.');
    size_t last = s.find_last_not_of('0');
    return last <= dot ? 0 : static_cast<int>(last - dot);
  }

  std::string raw(double v) const {
    char buf[64];
    if (isBool)
      return v != 0 ? "True" : "False";
    if (!isFloat) {
      std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(v));
      return buf;
    }
    if (std::isnan(v))
      return "nan";
    if (std::isinf(v))
      return v > 0 ? "inf" : "-inf";
    if (scientific) {
      std::snprintf(buf, sizeof(buf), "%.*e", sciDecimals, v);
      std::string s = buf;
      if (sciDecimals == 0) {
        size_t e = s.find('e');
        s.insert(e, ".");
      }
      return s;
    }
    std::snprintf(buf, sizeof(buf), "%.*f", neededDecimals(v), v);
    std::string s = buf;
    if (s.find('.') == std::string::npos)
      s += ".";
    return s;
  }

  void measure(double v) {
    std::string s = raw(v);
    size_t dot = s.find('.');
    if (isFloat && !scientific && dot != std::string::npos) {
      padLeft = std::max(padLeft, dot);
      padRight = std::max(padRight, s.size() - dot - 1);
    } else {
      width = std::max(width, s.size());
    }
  }

  std::string format(double v) const {
    std::string s = raw(v);
    size_t dot = s.find('.');
    if (isFloat && !scientific && dot != std::string::npos) {
      std::string left(padLeft - std::min(padLeft, dot), ' ');
      std::string right(padRight - std::min(padRight, s.size() - dot - 1), ' ');
      return left + s + right;
    }
    size_t w = std::max(width, padLeft + padRight + 1);
    return std::string(w - std::min(w, s.size()), ' ') + s;
  }
};

struct Printer {
  const HostArray &array;
  ElementFormatter fmt;
  bool summarize;
  static constexpr int64_t kEdge = 3;
  std::vector<int64_t> strides;

  explicit Printer(const HostArray &a) : array(a) {
    summarize = a.numElements() > 1000;
    strides.assign(a.shape.size(), 1);
    for (int i = static_cast<int>(a.shape.size()) - 2; i >= 0; --i)
      strides[i] = strides[i + 1] * a.shape[i + 1];
    fmt.isFloat = a.isFloat();
    fmt.single = a.dtype != TRELLIS_RT_F64;
    fmt.isBool = a.dtype == TRELLIS_RT_I1;
    std::vector<int64_t> shown = shownIndices();
    if (fmt.isFloat) {
      double maxAbs = 0, minAbs = INFINITY;
      for (int64_t i : shown) {
        double v = a.at(i);
        if (!std::isfinite(v) || v == 0)
          continue;
        maxAbs = std::max(maxAbs, std::fabs(v));
        minAbs = std::min(minAbs, std::fabs(v));
      }
      // numpy: exponent notation when max >= 1e8, min < 1e-4 or the
      // ratio exceeds 1000 (over non-zero finite values).
      fmt.scientific = minAbs != INFINITY && (maxAbs >= 1e8 || minAbs < 1e-4 ||
                                              maxAbs / minAbs > 1e3);
      if (fmt.scientific)
        for (int64_t i : shown) {
          char buf[64];
          std::snprintf(buf, sizeof(buf), "%.8e", a.at(i));
          std::string m = buf;
          m = m.substr(0, m.find('e'));
          size_t last = m.find_last_not_of('0'), dot = m.find('.');
          if (dot != std::string::npos && last != std::string::npos)
            fmt.sciDecimals =
                std::max(fmt.sciDecimals,
                         last <= dot ? 0 : static_cast<int>(last - dot));
        }
    }
    for (int64_t i : shown)
      fmt.measure(a.at(i));
  }

  std::vector<int64_t> indices(int64_t dim) const {
    std::vector<int64_t> out;
    int64_t size = array.shape[dim];
    if (summarize && size > 2 * kEdge) {
      for (int64_t i = 0; i < kEdge; ++i)
        out.push_back(i);
      out.push_back(-1); // ellipsis
      for (int64_t i = size - kEdge; i < size; ++i)
        out.push_back(i);
    } else {
      for (int64_t i = 0; i < size; ++i)
        out.push_back(i);
    }
    return out;
  }

  void collect(size_t dim, int64_t base, std::vector<int64_t> &out) const {
    if (dim == array.shape.size()) {
      out.push_back(base);
      return;
    }
    for (int64_t i : indices(dim))
      if (i >= 0)
        collect(dim + 1, base + i * strides[dim], out);
  }

  std::vector<int64_t> shownIndices() const {
    std::vector<int64_t> out;
    if (array.numElements() == 0)
      return out;
    collect(0, 0, out);
    return out;
  }

  std::string element(int64_t flat) const { return fmt.format(array.at(flat)); }

  void print(std::string &out, size_t dim, int64_t base, size_t indent) const {
    const size_t rank = array.shape.size();
    out += '[';
    std::vector<int64_t> idx = indices(dim);
    if (dim + 1 == rank) {
      size_t lineStart = out.rfind('\n');
      size_t column =
          out.size() - (lineStart == std::string::npos ? 0 : lineStart + 1);
      for (size_t k = 0; k < idx.size(); ++k) {
        std::string item =
            idx[k] < 0 ? "..." : element(base + idx[k] * strides[dim]);
        if (k) {
          if (column + 1 + item.size() + 1 > 75) {
            out += '\n' + std::string(indent + 1, ' ');
            column = indent + 1;
          } else {
            out += ' ';
            ++column;
          }
        }
        out += item;
        column += item.size();
      }
    } else {
      for (size_t k = 0; k < idx.size(); ++k) {
        if (k) {
          out += '\n';
          out += std::string(rank - dim - 2, '\n');
          out += std::string(indent + 1, ' ');
        }
        if (idx[k] < 0)
          out += "...";
        else
          print(out, dim + 1, base + idx[k] * strides[dim], indent + 1);
      }
    }
    out += ']';
  }
};

} // namespace

std::string mlir::trellis::exec::formatArray(const HostArray &array) {
  if (array.shape.empty()) {
    Printer p(array);
    return p.fmt.raw(array.at(0));
  }
  Printer p(array);
  std::string out;
  p.print(out, 0, 0, 0);
  return out;
}

//===----------------------------------------------------------------------===//
// Generated inputs and comparison
//===----------------------------------------------------------------------===//

/// Calls fn(i, g) for every element i of a block of `block` at `offset` in
/// a row-major array of `global`, g being the element's global index.
template <typename Fn>
static void forEachGlobalIndex(const std::vector<int64_t> &global,
                               const std::vector<int64_t> &offset,
                               const std::vector<int64_t> &block, Fn fn) {
  const size_t rank = global.size();
  int64_t count = 1;
  for (int64_t d : block)
    count *= d;
  std::vector<int64_t> index(rank, 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t g = 0;
    for (size_t d = 0; d < rank; ++d)
      g = g * global[d] + offset[d] + index[d];
    fn(i, g);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < block[d])
        break;
      index[d] = 0;
    }
  }
}

/// A counter-based generator (splitmix64 of seed and index): element g of
/// an input has the same value whichever process generates which block.
static uint64_t mix(uint64_t seed, uint64_t index) {
  uint64_t z = seed * 0x9e3779b97f4a7c15ull + index + 0x632be59bd9b4e019ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z = z ^ (z >> 31);
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double randomValue(const HostArray &array, uint64_t seed,
                          int64_t index) {
  uint64_t bits = mix(seed, static_cast<uint64_t>(index));
  if (array.isFloat()) // uniform in [-1, 1) with 53 random bits
    return static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0;
  int64_t value = static_cast<int64_t>(bits % 17) - 8; // [-8, 8]
  if (array.dtype == TRELLIS_RT_I1)
    return value > 0;
  return static_cast<double>(value);
}

void mlir::trellis::exec::fillIota(HostArray &array) {
  for (int64_t i = 0, n = array.numElements(); i < n; ++i)
    array.set(i, static_cast<double>(i));
}

void mlir::trellis::exec::fillRandom(HostArray &array, uint64_t seed) {
  for (int64_t i = 0, n = array.numElements(); i < n; ++i)
    array.set(i, randomValue(array, seed, i));
}

void mlir::trellis::exec::fillBlock(HostArray &block,
                                    const std::vector<int64_t> &globalShape,
                                    const std::vector<int64_t> &offset,
                                    bool random, uint64_t seed) {
  forEachGlobalIndex(globalShape, offset, block.shape,
                     [&](int64_t i, int64_t g) {
                       block.set(i, random ? randomValue(block, seed, g)
                                           : static_cast<double>(g));
                     });
}

Tolerance mlir::trellis::exec::defaultTolerance(int32_t dtype) {
  switch (dtype) {
  case TRELLIS_RT_BF16:
    return {0x1p-6, 0x1p-6}; // 8 significant bits: an ulp at 1 is 2^-7
  case TRELLIS_RT_F16:
    return {0x1p-9, 0x1p-9}; // 11 significant bits: an ulp at 1 is 2^-10
  default:
    return {1e-4, 1e-5};
  }
}

Comparison mlir::trellis::exec::compareArrays(const HostArray &expected,
                                              const HostArray &actual,
                                              double rtol, double atol) {
  Comparison c;
  if (expected.shape != actual.shape || expected.dtype != actual.dtype) {
    c.equal = false;
    c.mismatches = -1;
    return c;
  }
  bool exact = !expected.isFloat();
  for (int64_t i = 0, n = expected.numElements(); i < n; ++i) {
    double e = expected.at(i), a = actual.at(i);
    double err = std::fabs(a - e);
    bool ok;
    if (exact)
      ok = a == e;
    else if (std::isnan(e) || std::isnan(a))
      ok = std::isnan(e) && std::isnan(a);
    else if (std::isinf(e) || std::isinf(a))
      ok = a == e; // infinities match only themselves (inf - inf is NaN)
    else
      ok = err <= atol + rtol * std::fabs(e);
    if (std::isfinite(err)) {
      c.maxAbsError = std::max(c.maxAbsError, err);
      if (e != 0)
        c.maxRelError = std::max(c.maxRelError, err / std::fabs(e));
    }
    if (!ok) {
      if (c.firstMismatch < 0)
        c.firstMismatch = i;
      ++c.mismatches;
      c.equal = false;
    }
  }
  return c;
}

std::string Comparison::describe(const HostArray &expected,
                                 const HostArray &actual) const {
  if (mismatches < 0)
    return "shape or dtype differs";
  if (equal) {
    char buf[128];
    std::snprintf(buf, sizeof(buf),
                  "match (max abs error %.3g, max rel error %.3g)", maxAbsError,
                  maxRelError);
    return buf;
  }
  // Index of the first mismatch as coordinates.
  std::vector<int64_t> coord(expected.shape.size());
  int64_t rest = firstMismatch;
  for (int i = static_cast<int>(expected.shape.size()) - 1; i >= 0; --i) {
    coord[i] = expected.shape[i] ? rest % expected.shape[i] : 0;
    rest = expected.shape[i] ? rest / expected.shape[i] : 0;
  }
  std::string where = "[";
  for (size_t i = 0; i < coord.size(); ++i)
    where += (i ? ", " : "") + std::to_string(coord[i]);
  where += "]";
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "%lld of %lld elements differ; first at %s: expected %.9g, "
                "got %.9g (max abs error %.3g)",
                (long long)mismatches, (long long)expected.numElements(),
                where.c_str(), expected.at(firstMismatch),
                actual.at(firstMismatch), maxAbsError);
  return buf;
}
