//===- StablehloConvolution.cpp - The convolution's textual forms ---------===//
//
// `stablehlo.convolution` as the StableHLO specification prints it:
//
//   stablehlo.convolution(%x, %w)
//       dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
//       window = {stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate =
//       [1, 1], rhs_dilate = [1, 1], reverse = [false, false]}
//       {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : ...
//
// and its dimension numbers attribute in the generic form,
// `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>` or
// `#stablehlo.conv<raw input_batch_dimension = 0, ...>`.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/ImportDialects.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSet.h"

#include <functional>

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::hlo;

namespace {

/// One operand's layout: the positions of its two lettered dimensions
/// (batch and feature, or input and output feature) and of each spatial
/// dimension, in window order.
struct ConvLayout {
  int64_t first = -1;
  int64_t second = -1;
  SmallVector<int64_t> spatial;
};

/// `[b, 0, 1, f]` with letters `letters[0]` and `letters[1]`: each letter
/// once, and the numbers a permutation of the spatial dimensions.
ParseResult parseLayout(AsmParser &parser, StringRef letters,
                        ConvLayout &layout) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> entries; // -1, -2: the letters; else spatial index
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            StringRef keyword;
            if (succeeded(parser.parseOptionalKeyword(&keyword))) {
              size_t which = letters.find(keyword);
              if (keyword.size() != 1 || which == StringRef::npos)
                return parser.emitError(parser.getCurrentLocation())
                       << "expected '" << letters[0] << "', '" << letters[1]
                       << "' or a spatial dimension number, got '" << keyword
                       << "'";
              entries.push_back(-1 - static_cast<int64_t>(which));
              return success();
            }
            int64_t value;
            if (parser.parseInteger(value))
              return failure();
            entries.push_back(value);
            return success();
          }))
    return failure();
  int64_t spatialCount = static_cast<int64_t>(entries.size()) - 2;
  layout.spatial.assign(std::max<int64_t>(spatialCount, 0), -1);
  for (auto [position, entry] : llvm::enumerate(entries)) {
    int64_t *slot = entry == -1   ? &layout.first
                    : entry == -2 ? &layout.second
                    : entry >= 0 && entry < spatialCount
                        ? &layout.spatial[entry]
                        : nullptr;
    if (!slot || *slot != -1)
      return parser.emitError(loc)
             << "each of '" << letters[0] << "', '" << letters[1]
             << "' and the spatial dimensions 0.." << spatialCount - 1
             << " must appear once";
    *slot = static_cast<int64_t>(position);
  }
  if (layout.first < 0 || layout.second < 0)
    return parser.emitError(loc) << "each of '" << letters[0] << "' and '"
                                 << letters[1] << "' must appear once";
  return success();
}

/// The `[b, 0, 1, f]` form of a layout, or nothing when its positions are
/// not a permutation (the attribute then prints in the raw form).
std::optional<SmallVector<std::string>> layoutEntries(int64_t first,
                                                      int64_t second,
                                                      ArrayRef<int64_t> spatial,
                                                      StringRef letters) {
  int64_t rank = static_cast<int64_t>(spatial.size()) + 2;
  SmallVector<std::string> entries(rank);
  auto place = [&](int64_t position, std::string text) {
    if (position < 0 || position >= rank || !entries[position].empty())
      return false;
    entries[position] = std::move(text);
    return true;
  };
  if (!place(first, std::string(1, letters[0])) ||
      !place(second, std::string(1, letters[1])))
    return std::nullopt;
  for (auto [i, position] : llvm::enumerate(spatial))
    if (!place(position, std::to_string(i)))
      return std::nullopt;
  return entries;
}

void printEntries(AsmPrinter &printer, ArrayRef<std::string> entries) {
  printer << '[';
  llvm::interleaveComma(entries, printer);
  printer << ']';
}

/// `raw input_batch_dimension = 0, ...`, every field named (after `raw`).
ParseResult parseRawDimensions(AsmParser &parser,
                               ConvDimensionNumbersAttr &attr) {
  static constexpr StringRef kScalars[6] = {
      "input_batch_dimension",          "input_feature_dimension",
      "kernel_input_feature_dimension", "kernel_output_feature_dimension",
      "output_batch_dimension",         "output_feature_dimension"};
  static constexpr StringRef kLists[3] = {"input_spatial_dimensions",
                                          "kernel_spatial_dimensions",
                                          "output_spatial_dimensions"};
  std::optional<int64_t> scalars[6];
  SmallVector<int64_t> lists[3];
  SMLoc start = parser.getCurrentLocation();
  // Fields up to the ninth, so that the op's `, window = ...` follows.
  int64_t fields = 0;
  do {
    StringRef key;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (const StringRef *it = llvm::find(kScalars, key);
        it != std::end(kScalars)) {
      if (parser.parseInteger(scalars[it - std::begin(kScalars)].emplace()))
        return failure();
      continue;
    }
    const StringRef *it = llvm::find(kLists, key);
    if (it == std::end(kLists))
      return parser.emitError(loc)
             << "unknown convolution dimension numbers field '" << key << "'";
    SmallVector<int64_t> &list = lists[it - std::begin(kLists)];
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
          return parser.parseInteger(list.emplace_back());
        }))
      return failure();
  } while (++fields < 9 && succeeded(parser.parseOptionalComma()));
  for (auto [name, value] : llvm::zip(kScalars, scalars))
    if (!value)
      return parser.emitError(start) << "missing field '" << name << "'";
  attr = ConvDimensionNumbersAttr::get(
      parser.getContext(), *scalars[0], *scalars[1], lists[0], *scalars[2],
      *scalars[3], lists[1], *scalars[4], *scalars[5], lists[2]);
  return success();
}

/// `[..]` or `[[lo, hi], ..]` of integers; bools too (`reverse`).
ParseResult parseWindowList(OpAsmParser &parser, SmallVectorImpl<int64_t> &out,
                            bool pairs, bool bools) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        if (pairs)
          return parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Square,
              [&]() { return parser.parseInteger(out.emplace_back()); });
        if (bools) {
          if (succeeded(parser.parseOptionalKeyword("true"))) {
            out.push_back(1);
            return success();
          }
          if (succeeded(parser.parseOptionalKeyword("false"))) {
            out.push_back(0);
            return success();
          }
        }
        return parser.parseInteger(out.emplace_back());
      });
}

} // namespace

ParseResult mlir::trellis::parseConvDimensions(AsmParser &parser,
                                               ConvDimensionNumbersAttr &attr) {
  if (succeeded(parser.parseOptionalKeyword("raw")))
    return parseRawDimensions(parser, attr);
  ConvLayout input, kernel, output;
  SMLoc loc = parser.getCurrentLocation();
  if (parseLayout(parser, "bf", input) || parser.parseKeyword("x") ||
      parseLayout(parser, "io", kernel) || parser.parseArrow() ||
      parseLayout(parser, "bf", output))
    return failure();
  if (input.spatial.size() != kernel.spatial.size() ||
      input.spatial.size() != output.spatial.size())
    return parser.emitError(loc)
           << "the input, kernel and output must have as many spatial "
              "dimensions ("
           << input.spatial.size() << ", " << kernel.spatial.size() << ", "
           << output.spatial.size() << ")";
  attr = ConvDimensionNumbersAttr::get(
      parser.getContext(), input.first, input.second, input.spatial,
      kernel.first, kernel.second, kernel.spatial, output.first, output.second,
      output.spatial);
  return success();
}

void mlir::trellis::printConvDimensions(AsmPrinter &printer, Operation *,
                                        ConvDimensionNumbersAttr attr) {
  auto input = layoutEntries(attr.getInputBatchDimension(),
                             attr.getInputFeatureDimension(),
                             attr.getInputSpatialDimensions(), "bf");
  auto kernel = layoutEntries(attr.getKernelInputFeatureDimension(),
                              attr.getKernelOutputFeatureDimension(),
                              attr.getKernelSpatialDimensions(), "io");
  auto output = layoutEntries(attr.getOutputBatchDimension(),
                              attr.getOutputFeatureDimension(),
                              attr.getOutputSpatialDimensions(), "bf");
  if (input && kernel && output) {
    printEntries(printer, *input);
    printer << 'x';
    printEntries(printer, *kernel);
    printer << "->";
    printEntries(printer, *output);
    return;
  }
  std::pair<StringRef, int64_t> scalars[] = {
      {"input_batch_dimension", attr.getInputBatchDimension()},
      {"input_feature_dimension", attr.getInputFeatureDimension()},
      {"kernel_input_feature_dimension", attr.getKernelInputFeatureDimension()},
      {"kernel_output_feature_dimension",
       attr.getKernelOutputFeatureDimension()},
      {"output_batch_dimension", attr.getOutputBatchDimension()},
      {"output_feature_dimension", attr.getOutputFeatureDimension()}};
  std::pair<StringRef, ArrayRef<int64_t>> lists[] = {
      {"input_spatial_dimensions", attr.getInputSpatialDimensions()},
      {"kernel_spatial_dimensions", attr.getKernelSpatialDimensions()},
      {"output_spatial_dimensions", attr.getOutputSpatialDimensions()}};
  printer << "raw ";
  for (auto [name, value] : scalars)
    printer << name << " = " << value << ", ";
  llvm::interleaveComma(lists, printer, [&](const auto &field) {
    printer << field.first << " = ";
    printIntList(printer, field.second);
  });
}

Attribute ConvDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  ConvDimensionNumbersAttr attr;
  if (parser.parseLess() || parseConvDimensions(parser, attr) ||
      parser.parseGreater())
    return {};
  return attr;
}

void ConvDimensionNumbersAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printConvDimensions(printer, nullptr, *this);
  printer << '>';
}

ParseResult mlir::trellis::parseWindowAttributes(OpAsmParser &parser,
                                                 DenseI64ArrayAttr &strides,
                                                 DenseIntElementsAttr &padding,
                                                 DenseI64ArrayAttr &lhsDilation,
                                                 DenseI64ArrayAttr &rhsDilation,
                                                 DenseBoolArrayAttr &reversal) {
  MLIRContext *ctx = parser.getContext();
  llvm::StringSet<> seen;
  StringRef key;
  while (succeeded(parser.parseOptionalKeyword(&key))) {
    SMLoc loc = parser.getCurrentLocation();
    if (!seen.insert(key).second)
      return parser.emitError(loc) << "window field '" << key << "' repeated";
    SmallVector<int64_t> values;
    bool isPad = key == "pad", isReverse = key == "reverse";
    if (parser.parseEqual() ||
        parseWindowList(parser, values, isPad, isReverse))
      return failure();
    if (key == "stride") {
      strides = DenseI64ArrayAttr::get(ctx, values);
    } else if (isPad) {
      int64_t rows = static_cast<int64_t>(values.size()) / 2;
      if (values.size() % 2)
        return parser.emitError(loc, "each pad entry is [low, high]");
      auto type = RankedTensorType::get({rows, 2}, IntegerType::get(ctx, 64));
      padding = DenseIntElementsAttr::get(type, values);
    } else if (key == "lhs_dilate") {
      lhsDilation = DenseI64ArrayAttr::get(ctx, values);
    } else if (key == "rhs_dilate") {
      rhsDilation = DenseI64ArrayAttr::get(ctx, values);
    } else if (isReverse) {
      SmallVector<bool> flags(
          llvm::map_range(values, [](int64_t v) -> bool { return v != 0; }));
      reversal = DenseBoolArrayAttr::get(ctx, flags);
    } else {
      return parser.emitError(loc)
             << "unknown window field '" << key
             << "' (expected stride, pad, lhs_dilate, rhs_dilate or reverse)";
    }
    if (failed(parser.parseOptionalComma()))
      break;
  }
  return success();
}

void mlir::trellis::printWindowAttributes(OpAsmPrinter &printer, Operation *,
                                          DenseI64ArrayAttr strides,
                                          DenseIntElementsAttr padding,
                                          DenseI64ArrayAttr lhsDilation,
                                          DenseI64ArrayAttr rhsDilation,
                                          DenseBoolArrayAttr reversal) {
  SmallVector<std::function<void()>> fields;
  auto ints = [&](StringRef name, DenseI64ArrayAttr values) {
    if (values)
      fields.push_back([&printer, name, values] {
        printer << name << " = ";
        printIntList(printer, values.asArrayRef());
      });
  };
  ints("stride", strides);
  if (padding)
    fields.push_back([&] {
      SmallVector<int64_t> flat(padding.getValues<int64_t>());
      printer << "pad = [";
      for (size_t i = 0; i + 1 < flat.size(); i += 2)
        printer << (i ? ", [" : "[") << flat[i] << ", " << flat[i + 1] << ']';
      printer << ']';
    });
  ints("lhs_dilate", lhsDilation);
  ints("rhs_dilate", rhsDilation);
  if (reversal)
    fields.push_back([&] {
      printer << "reverse = [";
      llvm::interleaveComma(reversal.asArrayRef(), printer,
                            [&](bool v) { printer << (v ? "true" : "false"); });
      printer << ']';
    });
  llvm::interleaveComma(fields, printer,
                        [](const std::function<void()> &print) { print(); });
}
