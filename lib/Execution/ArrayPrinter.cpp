//===- ArrayPrinter.cpp - Print host arrays as numpy does -----------------===//

#include "trellis/Execution/HostArray.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir::trellis::exec;

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
