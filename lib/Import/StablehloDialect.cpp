//===- StablehloDialect.cpp - Import-only StableHLO subset ----------------===//
//
// The textual forms follow the StableHLO specification's pretty printing:
// `stablehlo.add %a, %b : tensor<4xf32>`, `dims = [0, 1]`,
// `contracting_dims = [1] x [0]`, `stablehlo.reduce(%x init: %c) applies
// stablehlo.add across dimensions = [1]`, and so on. The generic form
// (`"stablehlo.add"(%a, %b) : (...) -> ...`) needs nothing here.
//
// This file holds the dialect, its generated code, the custom directives
// the ODS formats use and the attributes' syntax; StablehloOps.cpp holds
// the ops' hand-written syntax and verifiers.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/ImportDialects.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::hlo;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// `type` when every operand and the result have it, else a function type
/// `(t0, t1) -> r`. `types` are the operands' then the result's.
static ParseResult parseSameTypes(OpAsmParser &parser, ArrayRef<Type *> types) {
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalLParen())) {
    SmallVector<Type> operands;
    Type result;
    if ((failed(parser.parseOptionalRParen()) &&
         (parser.parseTypeList(operands) || parser.parseRParen())) ||
        parser.parseArrow() || parser.parseType(result))
      return failure();
    if (operands.size() != types.size() - 1)
      return parser.emitError(loc) << "expected " << types.size() - 1
                                   << " operand types, got " << operands.size();
    for (auto [slot, type] : llvm::zip(types.drop_back(), operands))
      *slot = type;
    *types.back() = result;
    return success();
  }
  Type type;
  if (parser.parseType(type))
    return failure();
  for (Type *slot : types)
    *slot = type;
  return success();
}

static void printSameTypes(OpAsmPrinter &printer, ArrayRef<Type> types) {
  if (llvm::all_equal(types)) {
    printer << types.front();
    return;
  }
  printer << '(';
  llvm::interleaveComma(types.drop_back(), printer);
  printer << ") -> " << types.back();
}

template <typename... Ts>
static ParseResult parseSameOperandsAndResultType(OpAsmParser &parser,
                                                  Ts &...types) {
  return parseSameTypes(parser, {&types...});
}

template <typename... Ts>
static void printSameOperandsAndResultType(OpAsmPrinter &printer, Operation *,
                                           Ts... types) {
  printSameTypes(printer, {types...});
}

/// `tensor<4xi1>, tensor<4xf32>` (the predicate's type, then the one type of
/// both branches and the result), or a function type.
static ParseResult parseSelectOpType(OpAsmParser &parser, Type &pred,
                                     Type &onTrue, Type &onFalse,
                                     Type &result) {
  if (succeeded(parser.parseOptionalLParen())) {
    if (parser.parseType(pred) || parser.parseComma() ||
        parser.parseType(onTrue) || parser.parseComma() ||
        parser.parseType(onFalse) || parser.parseRParen() ||
        parser.parseArrow() || parser.parseType(result))
      return failure();
    return success();
  }
  if (parser.parseType(pred) || parser.parseComma() || parser.parseType(result))
    return failure();
  onTrue = onFalse = result;
  return success();
}

static void printSelectOpType(OpAsmPrinter &printer, Operation *, Type pred,
                              Type onTrue, Type onFalse, Type result) {
  if (onTrue == result && onFalse == result) {
    printer << pred << ", " << result;
    return;
  }
  printer << '(' << pred << ", " << onTrue << ", " << onFalse << ") -> "
          << result;
}

static ParseResult parseIntList(AsmParser &parser,
                                SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
    return parser.parseInteger(values.emplace_back());
  });
}

void mlir::trellis::printIntList(AsmPrinter &printer,
                                 ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

ParseResult mlir::trellis::parseDims(OpAsmParser &parser,
                                     DenseI64ArrayAttr &dims) {
  SmallVector<int64_t> values;
  if (parseIntList(parser, values))
    return failure();
  dims = DenseI64ArrayAttr::get(parser.getContext(), values);
  return success();
}

static void printDims(OpAsmPrinter &printer, Operation *,
                      DenseI64ArrayAttr dims) {
  printIntList(printer, dims.asArrayRef());
}

/// `[start:limit(:stride)?, ...]`.
static ParseResult parseSliceRanges(OpAsmParser &parser,
                                    DenseI64ArrayAttr &starts,
                                    DenseI64ArrayAttr &limits,
                                    DenseI64ArrayAttr &strides) {
  SmallVector<int64_t> start, limit, stride;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            if (parser.parseInteger(start.emplace_back()) ||
                parser.parseColon() ||
                parser.parseInteger(limit.emplace_back()))
              return failure();
            stride.push_back(1);
            if (succeeded(parser.parseOptionalColon()))
              return parser.parseInteger(stride.back());
            return success();
          }))
    return failure();
  MLIRContext *ctx = parser.getContext();
  starts = DenseI64ArrayAttr::get(ctx, start);
  limits = DenseI64ArrayAttr::get(ctx, limit);
  strides = DenseI64ArrayAttr::get(ctx, stride);
  return success();
}

static void printSliceRanges(OpAsmPrinter &printer, Operation *,
                             DenseI64ArrayAttr starts, DenseI64ArrayAttr limits,
                             DenseI64ArrayAttr strides) {
  printer << '[';
  llvm::interleaveComma(llvm::seq<int64_t>(0, starts.size()), printer,
                        [&](int64_t i) {
                          printer << starts[i] << ':' << limits[i];
                          if (i < strides.size() && strides[i] != 1)
                            printer << ':' << strides[i];
                        });
  printer << ']';
}

/// `%a, %b,` — operands each followed by a comma, before an attribute.
static ParseResult parseVariadicOperandWithAttribute(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands) {
  do {
    OpAsmParser::UnresolvedOperand operand;
    OptionalParseResult result = parser.parseOptionalOperand(operand);
    if (!result.has_value())
      return success();
    if (failed(*result))
      return failure();
    operands.push_back(operand);
  } while (succeeded(parser.parseComma()));
  return failure();
}

static void printVariadicOperandWithAttribute(OpAsmPrinter &printer,
                                              Operation *,
                                              OperandRange operands) {
  // The format prints the space before the attribute's keyword.
  llvm::interleave(
      operands, [&](Value operand) { printer << operand << ','; },
      [&] { printer << ' '; });
}

/// `batching_dims = [0] x [0], contracting_dims = [2] x [1]`; either part
/// may be missing when it is empty.
static ParseResult parseDotDimensionNumbers(OpAsmParser &parser,
                                            DotDimensionNumbersAttr &attr) {
  SmallVector<int64_t> lhsBatch, rhsBatch, lhsContract, rhsContract;
  auto parsePair = [&](SmallVectorImpl<int64_t> &lhs,
                       SmallVectorImpl<int64_t> &rhs) -> ParseResult {
    if (parser.parseEqual() || parseIntList(parser, lhs) ||
        parser.parseKeyword("x") || parseIntList(parser, rhs))
      return failure();
    return success();
  };
  bool comma = false;
  if (succeeded(parser.parseOptionalKeyword("batching_dims"))) {
    if (parsePair(lhsBatch, rhsBatch))
      return failure();
    comma = succeeded(parser.parseOptionalComma());
  }
  if (succeeded(parser.parseOptionalKeyword("contracting_dims"))) {
    if (parsePair(lhsContract, rhsContract))
      return failure();
  } else if (comma) {
    return parser.emitError(parser.getCurrentLocation(),
                            "expected 'contracting_dims'");
  }
  attr = DotDimensionNumbersAttr::get(parser.getContext(), lhsBatch, rhsBatch,
                                      lhsContract, rhsContract);
  return success();
}

static void printDotDimensionNumbers(OpAsmPrinter &printer, Operation *,
                                     DotDimensionNumbersAttr attr) {
  if (!attr.getLhsBatchingDimensions().empty() ||
      !attr.getRhsBatchingDimensions().empty()) {
    printer << "batching_dims = ";
    printIntList(printer, attr.getLhsBatchingDimensions());
    printer << " x ";
    printIntList(printer, attr.getRhsBatchingDimensions());
    printer << ", ";
  }
  printer << "contracting_dims = ";
  printIntList(printer, attr.getLhsContractingDimensions());
  printer << " x ";
  printIntList(printer, attr.getRhsContractingDimensions());
}

/// `[DEFAULT, HIGHEST]`.
static ParseResult parsePrecisionConfig(OpAsmParser &parser, ArrayAttr &attr) {
  SmallVector<Attribute> values;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            StringRef keyword;
            SMLoc loc = parser.getCurrentLocation();
            if (parser.parseKeyword(&keyword))
              return failure();
            std::optional<Precision> precision = symbolizePrecision(keyword);
            if (!precision)
              return parser.emitError(loc)
                     << "unknown precision '" << keyword
                     << "' (expected DEFAULT, HIGH or HIGHEST)";
            values.push_back(
                PrecisionAttr::get(parser.getContext(), *precision));
            return success();
          }))
    return failure();
  attr = ArrayAttr::get(parser.getContext(), values);
  return success();
}

static void printPrecisionConfig(OpAsmPrinter &printer, Operation *,
                                 ArrayAttr attr) {
  printer << '[';
  llvm::interleaveComma(attr, printer, [&](Attribute a) {
    printer << stringifyPrecision(cast<PrecisionAttr>(a).getValue());
  });
  printer << ']';
}

/// `tensor<2xf32>, tensor<i32>`: the operands' types, which the results
/// share.
static ParseResult parsePairedTypes(OpAsmParser &parser,
                                    SmallVectorImpl<Type> &operands,
                                    SmallVectorImpl<Type> &results) {
  if (parser.parseTypeList(operands))
    return failure();
  results.assign(operands.begin(), operands.end());
  return success();
}

static void printPairedTypes(OpAsmPrinter &printer, Operation *,
                             TypeRange operands, TypeRange) {
  llvm::interleaveComma(operands, printer);
}

ParseResult mlir::trellis::parseFunctionalTypeOf(
    OpAsmParser &parser, ArrayRef<OpAsmParser::UnresolvedOperand> operands,
    OperationState &result) {
  if (parser.parseColon())
    return failure();
  SMLoc typesLoc = parser.getCurrentLocation();
  FunctionType type;
  if (parser.parseType(type) ||
      parser.resolveOperands(operands, type.getInputs(), typesLoc,
                             result.operands))
    return failure();
  result.addTypes(type.getResults());
  return success();
}

//===----------------------------------------------------------------------===//
// Generated code
//===----------------------------------------------------------------------===//

#include "lib/Import/StablehloDialect.cpp.inc"
#include "lib/Import/StablehloEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "lib/Import/StablehloAttrs.cpp.inc"
#define GET_OP_CLASSES
#include "lib/Import/StablehloOps.cpp.inc"

void HloDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "lib/Import/StablehloOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "lib/Import/StablehloAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// DotDimensionNumbersAttr
//===----------------------------------------------------------------------===//

/// `<lhs_batching_dimensions = [0], ..., rhs_contracting_dimensions = [1]>`
/// with empty lists left out.
Attribute DotDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> lists[4];
  const char *names[4] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                          "lhs_contracting_dimensions",
                          "rhs_contracting_dimensions"};
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    do {
      StringRef key;
      SMLoc loc = parser.getCurrentLocation();
      if (parser.parseKeyword(&key) || parser.parseEqual())
        return {};
      auto *it = llvm::find(names, key);
      if (it == std::end(names)) {
        parser.emitError(loc)
            << "unknown dot dimension numbers field '" << key << "'";
        return {};
      }
      if (parseIntList(parser, lists[it - std::begin(names)]))
        return {};
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseGreater())
      return {};
  }
  return get(parser.getContext(), lists[0], lists[1], lists[2], lists[3]);
}

void DotDimensionNumbersAttr::print(AsmPrinter &printer) const {
  std::pair<const char *, ArrayRef<int64_t>> fields[] = {
      {"lhs_batching_dimensions", getLhsBatchingDimensions()},
      {"rhs_batching_dimensions", getRhsBatchingDimensions()},
      {"lhs_contracting_dimensions", getLhsContractingDimensions()},
      {"rhs_contracting_dimensions", getRhsContractingDimensions()}};
  printer << '<';
  llvm::interleaveComma(
      llvm::make_filter_range(
          fields, [](const auto &field) { return !field.second.empty(); }),
      printer, [&](const auto &field) {
        printer << field.first << " = ";
        printIntList(printer, field.second);
      });
  printer << '>';
}

//===----------------------------------------------------------------------===//
// GatherDimensionNumbersAttr and ScatterDimensionNumbersAttr
//===----------------------------------------------------------------------===//

/// `<name0 = [..], ..., index_vector_dim = N>` with the five list fields
/// `names` and index_vector_dim. StableHLO prints a field only when it
/// differs from its default, so each may be left out: an empty list, and
/// index_vector_dim 0.
static ParseResult parseIndexDimensionNumbers(AsmParser &parser, StringRef what,
                                              ArrayRef<StringRef> names,
                                              SmallVector<int64_t> (&lists)[5],
                                              int64_t &indexVectorDim) {
  std::optional<int64_t> vectorDim;
  if (parser.parseLess())
    return failure();
  indexVectorDim = 0;
  if (succeeded(parser.parseOptionalGreater()))
    return success();
  do {
    StringRef key;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (key == "index_vector_dim") {
      if (parser.parseInteger(vectorDim.emplace()))
        return failure();
      continue;
    }
    auto *it = llvm::find(names, key);
    if (it == names.end())
      return parser.emitError(loc)
             << "unknown " << what << " dimension numbers field '" << key
             << "'";
    if (parseIntList(parser, lists[it - names.begin()]))
      return failure();
  } while (succeeded(parser.parseOptionalComma()));
  if (parser.parseGreater())
    return failure();
  indexVectorDim = vectorDim.value_or(0);
  return success();
}

static void printIndexDimensionNumbers(
    AsmPrinter &printer,
    ArrayRef<std::pair<StringRef, ArrayRef<int64_t>>> fields,
    int64_t indexVectorDim) {
  printer << '<';
  for (auto [name, values] : fields) {
    if (values.empty())
      continue;
    printer << name << " = ";
    printIntList(printer, values);
    printer << ", ";
  }
  printer << "index_vector_dim = " << indexVectorDim << '>';
}

static constexpr StringRef kGatherFields[5] = {
    "offset_dims", "collapsed_slice_dims", "operand_batching_dims",
    "start_indices_batching_dims", "start_index_map"};
static constexpr StringRef kScatterFields[5] = {
    "update_window_dims", "inserted_window_dims", "input_batching_dims",
    "scatter_indices_batching_dims", "scatter_dims_to_operand_dims"};

/// `<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0],
/// index_vector_dim = 1>`.
Attribute GatherDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> lists[5];
  int64_t vectorDim;
  if (parseIndexDimensionNumbers(parser, "gather", kGatherFields, lists,
                                 vectorDim))
    return {};
  return get(parser.getContext(), lists[0], lists[1], lists[2], lists[3],
             lists[4], vectorDim);
}

void GatherDimensionNumbersAttr::print(AsmPrinter &printer) const {
  printIndexDimensionNumbers(printer,
                             {{kGatherFields[0], getOffsetDims()},
                              {kGatherFields[1], getCollapsedSliceDims()},
                              {kGatherFields[2], getOperandBatchingDims()},
                              {kGatherFields[3], getStartIndicesBatchingDims()},
                              {kGatherFields[4], getStartIndexMap()}},
                             getIndexVectorDim());
}

/// `<update_window_dims = [1], inserted_window_dims = [0],
/// scatter_dims_to_operand_dims = [0], index_vector_dim = 1>`.
Attribute ScatterDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> lists[5];
  int64_t vectorDim;
  if (parseIndexDimensionNumbers(parser, "scatter", kScatterFields, lists,
                                 vectorDim))
    return {};
  return get(parser.getContext(), lists[0], lists[1], lists[2], lists[3],
             lists[4], vectorDim);
}

void ScatterDimensionNumbersAttr::print(AsmPrinter &printer) const {
  printIndexDimensionNumbers(
      printer,
      {{kScatterFields[0], getUpdateWindowDims()},
       {kScatterFields[1], getInsertedWindowDims()},
       {kScatterFields[2], getInputBatchingDims()},
       {kScatterFields[3], getScatterIndicesBatchingDims()},
       {kScatterFields[4], getScatterDimsToOperandDims()}},
      getIndexVectorDim());
}
