//===- ArrayComparison.cpp - Compare host arrays within a tolerance -------===//

#include "trellis/Execution/HostArray.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace mlir::trellis::exec;

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
  std::string where = "[" + elementIndexText(expected.shape, firstMismatch) +
                      "]";
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "%lld of %lld elements differ; first at %s: expected %.9g, "
                "got %.9g (max abs error %.3g)",
                (long long)mismatches, (long long)expected.numElements(),
                where.c_str(), expected.at(firstMismatch),
                actual.at(firstMismatch), maxAbsError);
  return buf;
}

std::string mlir::trellis::exec::elementIndexText(
    const std::vector<int64_t> &shape, int64_t index) {
  std::vector<int64_t> coord(shape.size());
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    coord[i] = shape[i] ? index % shape[i] : 0;
    index = shape[i] ? index / shape[i] : 0;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(coord, os);
  return text;
}
