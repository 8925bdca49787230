//===- SubAxes.cpp - Names of parts of mesh axes --------------------------===//

#include "dialects/trellis/IR/SubAxes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

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

ParseResult mlir::trellis::parseAxisName(AsmParser &parser, StringAttr &axis) {
  std::string name;
  if (parser.parseString(&name))
    return failure();
  if (succeeded(parser.parseOptionalColon())) {
    int64_t preSize = 0, size = 0;
    SMLoc at = parser.getCurrentLocation();
    if (parser.parseLParen() || parser.parseInteger(preSize) ||
        parser.parseRParen() || parser.parseInteger(size))
      return failure();
    if (preSize <= 0 || size <= 0)
      return parser.emitError(at, "a sub-axis needs a positive pre-size "
                                  "and size, as in \"x\":(2)4");
    name = makeSubAxisName(name, preSize, size);
  }
  axis = parser.getBuilder().getStringAttr(name);
  return success();
}
