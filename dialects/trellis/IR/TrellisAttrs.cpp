//===- TrellisAttrs.cpp - Dimension shardings, specs, shardings -----------===//

#include "dialects/trellis/IR/SubAxes.h"
#include "dialects/trellis/IR/TrellisDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::trellis;

#include "dialects/trellis/IR/TrellisEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/trellis/IR/TrellisAttrs.cpp.inc"

void TrellisDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/trellis/IR/TrellisAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Shared pieces
//===----------------------------------------------------------------------===//

/// Prints `{"X", "Y"}`-style axis sets.
static void printAxisSet(AsmPrinter &printer, ArrayRef<StringAttr> axes,
                         bool open = false) {
  printer << '{';
  llvm::interleaveComma(axes, printer, [&](StringAttr axis) {
    if (std::optional<SubAxisName> sub = parseSubAxisName(axis.getValue())) {
      printer.printString(sub->axis);
      printer << ":(" << sub->preSize << ")" << sub->size;
      return;
    }
    printer.printString(axis.getValue());
  });
  if (open)
    printer << (axes.empty() ? "?" : ", ?");
  printer << '}';
}

/// Parses `{"X", "Y"}`, or with `allowOpen` also `{"X", ?}` / `{?}`.
static ParseResult parseAxisSet(AsmParser &parser,
                                SmallVectorImpl<StringAttr> &axes,
                                bool *open = nullptr) {
  if (open)
    *open = false;
  if (parser.parseLBrace())
    return failure();
  if (succeeded(parser.parseOptionalRBrace()))
    return success();
  do {
    if (open && succeeded(parser.parseOptionalQuestion())) {
      *open = true;
      break;
    }
    if (parseAxisName(parser, axes.emplace_back()))
      return failure();
  } while (succeeded(parser.parseOptionalComma()));
  return parser.parseRBrace();
}

/// Reports the first axis that appears twice in `axes`.
static LogicalResult
verifyNoDuplicateAxes(ArrayRef<StringAttr> axes,
                      function_ref<InFlightDiagnostic()> emitError,
                      StringRef what) {
  llvm::SmallDenseSet<StringAttr> seen;
  for (StringAttr axis : axes)
    if (!seen.insert(axis).second)
      return emitError() << "mesh axis \"" << axis.getValue()
                         << "\" appears more than once in " << what;
  return success();
}

static SmallVector<StringAttr> collectAxes(ArrayRef<DimShardingAttr> dims) {
  SmallVector<StringAttr> axes;
  for (DimShardingAttr dim : dims)
    llvm::append_range(axes, dim.getAxes());
  return axes;
}

static void printDims(AsmPrinter &printer, ArrayRef<DimShardingAttr> dims) {
  printer << '[';
  llvm::interleaveComma(dims, printer,
                        [&](DimShardingAttr dim) { dim.printBare(printer); });
  printer << ']';
}

static ParseResult parseDims(AsmParser &parser,
                             SmallVectorImpl<DimShardingAttr> &dims) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        FailureOr<DimShardingAttr> dim = DimShardingAttr::parseBare(parser);
        if (failed(dim))
          return failure();
        dims.push_back(*dim);
        return success();
      });
}

//===----------------------------------------------------------------------===//
// DimShardingAttr
//===----------------------------------------------------------------------===//

void DimShardingAttr::printBare(AsmPrinter &printer) const {
  printAxisSet(printer, getAxes(), /*open=*/!getClosed());
  if (hasPriority())
    printer << 'p' << getPriority();
}

FailureOr<DimShardingAttr> DimShardingAttr::parseBare(AsmParser &parser) {
  SmallVector<StringAttr> axes;
  bool open = false;
  if (parseAxisSet(parser, axes, &open))
    return failure();
  // `p<N>`: a priority.
  int64_t priority = -1;
  StringRef keyword;
  SMLoc at = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword(&keyword)) &&
      (!keyword.starts_with("p") ||
       keyword.drop_front().getAsInteger(10, priority) || priority < 0))
    return parser.emitError(at, "expected a priority like 'p0' after a "
                                "dimension sharding, got '")
           << keyword << "'";
  auto emitError = [&] { return parser.emitError(parser.getNameLoc()); };
  DimShardingAttr dim = DimShardingAttr::getChecked(
      emitError, parser.getContext(), axes, !open, priority);
  if (!dim)
    return failure();
  return dim;
}

Attribute DimShardingAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  FailureOr<DimShardingAttr> dim = parseBare(parser);
  if (failed(dim) || parser.parseGreater())
    return {};
  return *dim;
}

void DimShardingAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBare(printer);
  printer << '>';
}

LogicalResult
DimShardingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        ArrayRef<StringAttr> axes, bool, int64_t priority) {
  if (priority < -1)
    return emitError() << "a priority must be p0 or more";
  for (StringAttr axis : axes)
    if (!axis || axis.getValue().empty())
      return emitError() << "mesh axis names must be non-empty";
  return verifyNoDuplicateAxes(axes, emitError, "a dimension sharding");
}

//===----------------------------------------------------------------------===//
// SpecAttr
//===----------------------------------------------------------------------===//

void SpecAttr::printBare(AsmPrinter &printer) const {
  printDims(printer, getDims());
}

FailureOr<SpecAttr> SpecAttr::parseBare(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<DimShardingAttr> dims;
  if (parseDims(parser, dims))
    return failure();
  auto emitError = [&] { return parser.emitError(loc); };
  SpecAttr spec = SpecAttr::getChecked(emitError, parser.getContext(), dims);
  if (!spec)
    return failure();
  return spec;
}

Attribute SpecAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  FailureOr<SpecAttr> spec = parseBare(parser);
  if (failed(spec) || parser.parseGreater())
    return {};
  return *spec;
}

void SpecAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBare(printer);
  printer << '>';
}

LogicalResult SpecAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<DimShardingAttr> dims) {
  return verifyNoDuplicateAxes(collectAxes(dims), emitError,
                               "a partition spec");
}

ArrayRef<StringAttr> SpecAttr::getAxes(unsigned dim) const {
  if (dim >= getDims().size())
    return {};
  return getDims()[dim].getAxes();
}

SmallVector<StringAttr> SpecAttr::getAllAxes() const {
  return collectAxes(getDims());
}

bool SpecAttr::mentions(StringRef axis) const {
  return llvm::any_of(getDims(), [&](DimShardingAttr dim) {
    return llvm::any_of(dim.getAxes(),
                        [&](StringAttr a) { return a.getValue() == axis; });
  });
}

//===----------------------------------------------------------------------===//
// ShardingAttr
//===----------------------------------------------------------------------===//

Attribute ShardingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  FlatSymbolRefAttr mesh;
  SmallVector<DimShardingAttr> dims;
  SmallVector<StringAttr> replicated, unreduced;
  if (parser.parseLess() || parser.parseAttribute(mesh) ||
      parser.parseComma() || parseDims(parser, dims))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc keywordLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword) || parser.parseEqual())
      return {};
    if (keyword == "replicated") {
      if (parseAxisSet(parser, replicated))
        return {};
    } else if (keyword == "unreduced") {
      if (parseAxisSet(parser, unreduced))
        return {};
    } else {
      parser.emitError(keywordLoc)
          << "expected 'replicated' or 'unreduced', got '" << keyword << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  auto emitError = [&] { return parser.emitError(loc); };
  return ShardingAttr::getChecked(emitError, parser.getContext(), mesh, dims,
                                  replicated, unreduced);
}

void ShardingAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printer.printAttribute(getMesh());
  printer << ", ";
  printDims(printer, getDims());
  if (!getReplicated().empty()) {
    printer << ", replicated = ";
    printAxisSet(printer, getReplicated());
  }
  if (!getUnreduced().empty()) {
    printer << ", unreduced = ";
    printAxisSet(printer, getUnreduced());
  }
  printer << '>';
}

LogicalResult ShardingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   FlatSymbolRefAttr mesh,
                                   ArrayRef<DimShardingAttr> dims,
                                   ArrayRef<StringAttr> replicated,
                                   ArrayRef<StringAttr> unreduced) {
  if (!mesh)
    return emitError() << "a sharding must name a mesh";
  SmallVector<StringAttr> all = collectAxes(dims);
  llvm::append_range(all, replicated);
  llvm::append_range(all, unreduced);
  return verifyNoDuplicateAxes(all, emitError, "a sharding");
}

LogicalResult ShardingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (getDims().size() != shape.size())
    return emitError() << "sharding " << *this << " has " << getDims().size()
                       << " dimensions but the tensor has rank "
                       << shape.size();
  if (llvm::any_of(getDims(),
                   [](DimShardingAttr dim) { return dim.hasPriority(); }))
    return emitError() << "sharding " << *this
                       << " in a type has a priority; priorities order auto "
                          "propagation and belong on trellis.sharding "
                          "attributes and constraints";
  return success();
}

ArrayRef<StringAttr> ShardingAttr::getAxes(unsigned dim) const {
  if (dim >= getDims().size())
    return {};
  return getDims()[dim].getAxes();
}

SmallVector<StringAttr> ShardingAttr::getAllAxes() const {
  return collectAxes(getDims());
}

bool ShardingAttr::mentions(StringRef axis) const {
  auto matches = [&](StringAttr a) { return a.getValue() == axis; };
  return llvm::any_of(getAllAxes(), matches) ||
         llvm::any_of(getUnreduced(), matches);
}

bool ShardingAttr::isFullyReplicated() const {
  return getAllAxes().empty() && getUnreduced().empty();
}

SpecAttr ShardingAttr::getSpec() const {
  return SpecAttr::get(getContext(), getDims());
}
