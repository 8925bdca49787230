//===- SubAxes.h - Names of parts of mesh axes ------------------*- C++ -*-===//
//
// A sub-axis is a part of a mesh axis, as Shardy writes it: `"x":(2)4` is
// the part of size 4 of axis `x` whose coordinate changes every 8/(2*4)
// devices along `x` when `x` has 8 (the pre-size 2 counts the parts more
// major than it). On `x` = 8, `"x":(1)2` and `"x":(2)4` split the axis into
// its major 2 and minor 4: a dimension sharded over both, in that order, is
// laid out exactly as one sharded over `x`.
//
// Shardings carry a sub-axis as one axis name, `x:(2)4`, so that every list
// of axes stays a list of names; the sharding syntax prints and parses it
// as `"x":(2)4`. Before partitioning, RefineMeshes splits each mesh axis
// into the parts its sub-axes need and names those mesh axes the same way,
// so a name means the same devices before and after.
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_TRELLIS_IR_SUBAXES_H
#define DIALECTS_TRELLIS_IR_SUBAXES_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir {
class AsmParser;
class StringAttr;
} // namespace mlir

namespace mlir::trellis {

/// The parts of a sub-axis name `x:(2)4`.
struct SubAxisName {
  StringRef axis;
  int64_t preSize;
  int64_t size;
};

/// Splits `name` when it has the form `<axis>:(<pre>)<size>` with a
/// non-empty axis and positive numbers; std::nullopt otherwise.
std::optional<SubAxisName> parseSubAxisName(StringRef name);

/// `axis:(preSize)size`.
std::string makeSubAxisName(StringRef axis, int64_t preSize, int64_t size);

/// Parses an axis as shardings write it, `"x"` or the sub-axis
/// `"x":(2)4` (the name `x:(2)4`).
ParseResult parseAxisName(AsmParser &parser, StringAttr &axis);

/// `name` as the sharding syntax writes it, for messages: `"x"`, or
/// `"x":(2)4` for a sub-axis.
std::string quoteAxisName(StringRef name);

/// A mesh axis name resolved against a mesh: the mesh axis it is part of
/// (`index`), the product of the sizes of the parts more major than it
/// (`preSize`) and its size. A whole axis has preSize 1 and its own size.
struct AxisPart {
  unsigned index;
  int64_t preSize;
  int64_t size;
  /// Whether the two parts share devices' coordinates: the same axis and
  /// overlapping ranges [preSize, preSize * size).
  bool overlaps(const AxisPart &other) const {
    return index == other.index && preSize < other.preSize * other.size &&
           other.preSize < preSize * size;
  }
};

} // namespace mlir::trellis

#endif // DIALECTS_TRELLIS_IR_SUBAXES_H
