//===- SdyDialect.cpp - Import-only Shardy subset -------------------------===//
//
// Textual forms as Shardy documents them:
//   sdy.mesh @mesh = <["x"=2, "y"=4]>
//   #sdy.sharding<@mesh, [{"x"}, {"y", ?}p1], replicated={"z"}>
//   #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>
//   sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>]
//       out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"}
//       (%la: tensor<2xf32>) { ... sdy.return %r : tensor<2xf32> }
//       : (tensor<8xf32>) -> tensor<8xf32>
//
//===----------------------------------------------------------------------===//

#include "dialects/trellis/IR/SubAxes.h"
#include "lib/Import/ImportDialects.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::trellis::sdy;

/// A quoted axis name, or a Shardy sub-axis (`"x":(1)2`), which becomes
/// the one axis name `x:(1)2` Trellis's shardings use (SubAxes.h).
static ParseResult parseAxisName(AsmParser &parser, StringAttr &axis) {
  return trellis::parseAxisName(parser, axis);
}

/// `{"x", "y"}`; with `open`, a trailing `?` is accepted and reported.
static ParseResult parseAxisSet(AsmParser &parser,
                                SmallVectorImpl<StringAttr> &axes,
                                bool *open = nullptr) {
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

static void printAxisSet(AsmPrinter &printer, ArrayRef<StringAttr> axes,
                         bool open = false) {
  printer << '{';
  llvm::interleaveComma(axes, printer,
                        [&](StringAttr axis) { printer << axis; });
  if (open)
    printer << (axes.empty() ? "?" : ", ?");
  printer << '}';
}

#include "lib/Import/SdyDialect.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "lib/Import/SdyAttrs.cpp.inc"
/// `allowed_direction=FORWARD`: Shardy spells the direction as a bare
/// keyword (FORWARD, BACKWARD or NONE); kept as that string.
static ParseResult parseDirection(OpAsmParser &parser, StringAttr &direction) {
  StringRef keyword;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&keyword))
    return failure();
  if (keyword != "FORWARD" && keyword != "BACKWARD" && keyword != "NONE")
    return parser.emitError(loc, "expected FORWARD, BACKWARD or NONE, got ")
           << keyword;
  direction = parser.getBuilder().getStringAttr(keyword);
  return success();
}

static void printDirection(OpAsmPrinter &printer, Operation *,
                           StringAttr direction) {
  printer << direction.getValue();
}

#define GET_OP_CLASSES
#include "lib/Import/SdyOps.cpp.inc"

void SdyDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "lib/Import/SdyOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "lib/Import/SdyAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// MeshAttr
//===----------------------------------------------------------------------===//

Attribute MeshAttr::parse(AsmParser &parser, Type) {
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes, deviceIds;
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            std::string name;
            SMLoc loc = parser.getCurrentLocation();
            if (parser.parseString(&name) || parser.parseEqual() ||
                parser.parseInteger(sizes.emplace_back()))
              return failure();
            if (sizes.back() < 1)
              return parser.emitError(loc)
                     << "mesh axis \"" << name << "\" has size " << sizes.back()
                     << "; sizes must be positive";
            names.push_back(StringAttr::get(parser.getContext(), name));
            return success();
          }))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("device_ids") || parser.parseEqual() ||
        parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
          return parser.parseInteger(deviceIds.emplace_back());
        }))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return get(parser.getContext(), names, sizes, deviceIds);
}

void MeshAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(
      llvm::seq<size_t>(0, getAxisNames().size()), printer, [&](size_t i) {
        printer << getAxisNames()[i] << '=' << getAxisSizes()[i];
      });
  printer << ']';
  if (!getDeviceIds().empty()) {
    printer << ", device_ids=[";
    llvm::interleaveComma(getDeviceIds(), printer);
    printer << ']';
  }
  printer << '>';
}

//===----------------------------------------------------------------------===//
// DimShardingAttr
//===----------------------------------------------------------------------===//

/// `{"x", ?}p1` without the attribute prefix.
static FailureOr<DimShardingAttr> parseDimBody(AsmParser &parser) {
  SmallVector<StringAttr> axes;
  bool open = false;
  if (parseAxisSet(parser, axes, &open))
    return failure();
  int64_t priority = -1;
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (succeeded(parser.parseOptionalKeyword(&keyword))) {
    if (keyword.size() < 2 || keyword[0] != 'p' ||
        keyword.drop_front().getAsInteger(10, priority) || priority < 0)
      return parser.emitError(loc)
             << "expected a priority like 'p0' after a dimension sharding, "
                "got '"
             << keyword << "'";
  }
  return DimShardingAttr::get(parser.getContext(), axes, !open, priority);
}

static void printDimBody(AsmPrinter &printer, DimShardingAttr dim) {
  printAxisSet(printer, dim.getAxes(), !dim.getClosed());
  if (dim.getPriority() >= 0)
    printer << 'p' << dim.getPriority();
}

Attribute DimShardingAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  FailureOr<DimShardingAttr> dim = parseDimBody(parser);
  if (failed(dim) || parser.parseGreater())
    return {};
  return *dim;
}

void DimShardingAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printDimBody(printer, *this);
  printer << '>';
}

//===----------------------------------------------------------------------===//
// TensorShardingAttr
//===----------------------------------------------------------------------===//

FailureOr<TensorShardingAttr> TensorShardingAttr::parseBody(AsmParser &parser) {
  FlatSymbolRefAttr mesh;
  SmallVector<DimShardingAttr> dims;
  SmallVector<StringAttr> replicated, unreduced;
  SMLoc meshLoc = parser.getCurrentLocation();
  if (parser.parseLess())
    return failure();
  OptionalParseResult hasMesh = parser.parseOptionalAttribute(mesh);
  if (!hasMesh.has_value())
    return parser.emitError(meshLoc,
                            "expected a mesh name (@mesh); inline meshes "
                            "are not supported yet");
  if (failed(*hasMesh) || parser.parseComma() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            FailureOr<DimShardingAttr> dim = parseDimBody(parser);
            if (failed(dim))
              return failure();
            dims.push_back(*dim);
            return success();
          }))
    return failure();
  while (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword) || parser.parseEqual())
      return failure();
    if (keyword == "replicated") {
      if (parseAxisSet(parser, replicated))
        return failure();
    } else if (keyword == "unreduced") {
      if (parseAxisSet(parser, unreduced))
        return failure();
    } else {
      return parser.emitError(loc) << "expected 'replicated' or 'unreduced', "
                                      "got '"
                                   << keyword << "'";
    }
  }
  if (parser.parseGreater())
    return failure();
  return get(parser.getContext(), mesh, dims, replicated, unreduced);
}

void TensorShardingAttr::printBody(AsmPrinter &printer) const {
  printer << '<' << getMesh() << ", [";
  llvm::interleaveComma(getDims(), printer, [&](DimShardingAttr dim) {
    printDimBody(printer, dim);
  });
  printer << ']';
  if (!getReplicated().empty()) {
    printer << ", replicated=";
    printAxisSet(printer, getReplicated());
  }
  if (!getUnreduced().empty()) {
    printer << ", unreduced=";
    printAxisSet(printer, getUnreduced());
  }
  printer << '>';
}

Attribute TensorShardingAttr::parse(AsmParser &parser, Type) {
  FailureOr<TensorShardingAttr> sharding = parseBody(parser);
  if (failed(sharding))
    return {};
  return *sharding;
}

void TensorShardingAttr::print(AsmPrinter &printer) const {
  printBody(printer);
}

//===----------------------------------------------------------------------===//
// TensorShardingPerValueAttr and ManualAxesAttr
//===----------------------------------------------------------------------===//

/// `[<@mesh, [...]>, ...]`.
static ParseResult
parseShardingList(AsmParser &parser,
                  SmallVectorImpl<TensorShardingAttr> &shardings) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        FailureOr<TensorShardingAttr> sharding =
            TensorShardingAttr::parseBody(parser);
        if (failed(sharding))
          return failure();
        shardings.push_back(*sharding);
        return success();
      });
}

static void printShardingList(AsmPrinter &printer,
                              ArrayRef<TensorShardingAttr> shardings) {
  printer << '[';
  llvm::interleaveComma(shardings, printer, [&](TensorShardingAttr sharding) {
    sharding.printBody(printer);
  });
  printer << ']';
}

Attribute TensorShardingPerValueAttr::parse(AsmParser &parser, Type) {
  SmallVector<TensorShardingAttr> shardings;
  if (parser.parseLess() || parseShardingList(parser, shardings) ||
      parser.parseGreater())
    return {};
  return get(parser.getContext(), shardings);
}

void TensorShardingPerValueAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printShardingList(printer, getShardings());
  printer << '>';
}

Attribute ManualAxesAttr::parse(AsmParser &parser, Type) {
  // `#sdy.manual_axes<{"x"}>`, or `#sdy<manual_axes{"x"}>` as Shardy
  // prints it (in round-trip strings).
  SmallVector<StringAttr> axes;
  bool angled = succeeded(parser.parseOptionalLess());
  if (parseAxisSet(parser, axes) || (angled && parser.parseGreater()))
    return {};
  return get(parser.getContext(), axes);
}

void ManualAxesAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printAxisSet(printer, getAxes());
  printer << '>';
}

//===----------------------------------------------------------------------===//
// ManualComputationOp
//===----------------------------------------------------------------------===//

ParseResult ManualComputationOp::parse(OpAsmParser &parser,
                                       OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<TensorShardingAttr> ins, outs;
  SmallVector<StringAttr> axes;
  SmallVector<OpAsmParser::Argument> arguments;
  MLIRContext *ctx = parser.getContext();
  if (parser.parseOperandList(operands, AsmParser::Delimiter::Paren) ||
      parser.parseKeyword("in_shardings") || parser.parseEqual() ||
      parseShardingList(parser, ins) || parser.parseKeyword("out_shardings") ||
      parser.parseEqual() || parseShardingList(parser, outs) ||
      parser.parseKeyword("manual_axes") || parser.parseEqual() ||
      parseAxisSet(parser, axes) ||
      parser.parseArgumentList(arguments, AsmParser::Delimiter::Paren,
                               /*allowType=*/true))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, arguments) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parseFunctionalTypeOf(parser, operands, result))
    return failure();
  Properties &props = result.getOrAddProperties<Properties>();
  props.in_shardings = TensorShardingPerValueAttr::get(ctx, ins);
  props.out_shardings = TensorShardingPerValueAttr::get(ctx, outs);
  props.manual_axes = ManualAxesAttr::get(ctx, axes);
  return success();
}

void ManualComputationOp::print(OpAsmPrinter &printer) {
  printer << '(' << getTensors() << ") in_shardings=";
  printShardingList(printer, getInShardings().getShardings());
  printer << " out_shardings=";
  printShardingList(printer, getOutShardings().getShardings());
  printer << " manual_axes=";
  printAxisSet(printer, getManualAxes().getAxes());
  printer << " (";
  llvm::interleaveComma(
      getBody().getArguments(), printer,
      [&](BlockArgument arg) { printer.printRegionArgument(arg); });
  printer << ") ";
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  printer.printOptionalAttrDict(
      (*this)->getAttrs(), {"in_shardings", "out_shardings", "manual_axes"});
  printer << " : ";
  printer.printFunctionalType(*this);
}
