//===- SubAxes.cpp - Names of parts of mesh axes --------------------------===//

#include "trellis/Dialect/Trellis/IR/SubAxes.h"

using namespace mlir;
using namespace mlir::trellis;

std::optional<SubAxisName> mlir::trellis::parseSubAxisName(StringRef name) {
  // `<axis>:(<pre>)<size>`: split at the last ":(" so that axis names may
  // hold colons.
  size_t colon = name.rfind(":(");
  if (colon == StringRef::npos || colon == 0)
    return std::nullopt;
  StringRef rest = name.drop_front(colon + 2);
  auto [pre, size] = rest.split(')');
  SubAxisName sub{name.take_front(colon), 0, 0};
  if (pre.empty() || size.empty() || pre.getAsInteger(10, sub.preSize) ||
      size.getAsInteger(10, sub.size) || sub.preSize <= 0 || sub.size <= 0)
    return std::nullopt;
  return sub;
}

std::string mlir::trellis::makeSubAxisName(StringRef axis, int64_t preSize,
                                           int64_t size) {
  return axis.str() + ":(" + std::to_string(preSize) + ")" +
         std::to_string(size);
}

std::string mlir::trellis::quoteAxisName(StringRef name) {
  if (std::optional<SubAxisName> sub = parseSubAxisName(name))
    return "\"" + sub->axis.str() + "\":(" + std::to_string(sub->preSize) +
           ")" + std::to_string(sub->size);
  return "\"" + name.str() + "\"";
}
