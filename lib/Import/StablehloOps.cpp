//===- StablehloOps.cpp - Hand-written syntax and verifiers of ops --------===//
//
// The StableHLO ops whose textual form or checks ODS cannot declare:
// constant, reduce (with its compact `applies` form), while, custom_call,
// and the verifier of scatter. The dialect, its generated code and the
// custom directives are in StablehloDialect.cpp.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/ImportDialects.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::trellis::hlo;

//===----------------------------------------------------------------------===//
// ScatterOp
//===----------------------------------------------------------------------===//

LogicalResult ScatterOp::verify() {
  if (getInputs().size() != getUpdates().size() ||
      getInputs().size() != getNumResults())
    return emitOpError("needs one update and one result per input");
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

/// `stablehlo.constant dense<1.0> : tensor<f32>`.
ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  SMLoc loc = parser.getCurrentLocation();
  Attribute value;
  if (parser.parseAttribute(value))
    return failure();
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements)
    return parser.emitError(loc, "expected a tensor constant (dense<...> : "
                                 "tensor<...>)");
  result.getOrAddProperties<Properties>().value = elements;
  result.addTypes(elements.getType());
  return success();
}

void ConstantOp::print(OpAsmPrinter &printer) {
  printer.printOptionalAttrDict((*this)->getAttrs(), {"value"});
  printer << ' ';
  printer.printAttribute(getValue());
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

/// Two forms:
///   stablehlo.reduce(%x init: %c) applies stablehlo.add across
///       dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
///   stablehlo.reduce(%x init: %c), (%i init: %d) across dimensions = [1]
///       : (...) -> (...)
///     reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: ..., %bi: ...) {...}
/// The reducer's block takes every accumulator, then every element: the
/// i-th pair names block arguments i and N + i.
ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> inputs, inits;
  do {
    if (parser.parseLParen() || parser.parseOperand(inputs.emplace_back()) ||
        parser.parseKeyword("init") || parser.parseColon() ||
        parser.parseOperand(inits.emplace_back()) || parser.parseRParen())
      return failure();
  } while (succeeded(parser.parseOptionalComma()));

  std::optional<OperationName> applied;
  SMLoc appliedLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("applies"))) {
    FailureOr<OperationName> name = parser.parseCustomOperationName();
    if (failed(name))
      return failure();
    applied = *name;
  }
  DenseI64ArrayAttr dims;
  if (parser.parseKeyword("across") || parser.parseKeyword("dimensions") ||
      parser.parseEqual() || parseDims(parser, dims) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  result.getOrAddProperties<Properties>().dimensions = dims;

  SMLoc typesLoc = parser.getCurrentLocation();
  FunctionType type;
  if (parser.parseType(type))
    return failure();
  size_t n = inputs.size();
  if (type.getNumInputs() != 2 * n || type.getNumResults() != n)
    return parser.emitError(typesLoc)
           << "expected " << 2 * n << " operand types and " << n
           << " result types";
  SmallVector<OpAsmParser::UnresolvedOperand> operands(inputs);
  llvm::append_range(operands, inits);
  if (parser.resolveOperands(operands, type.getInputs(), typesLoc,
                             result.operands))
    return failure();
  result.addTypes(type.getResults());

  Region *body = result.addRegion();
  if (applied) {
    // The reducer applies one binary op to the accumulator and the element.
    if (n != 1)
      return parser.emitError(appliedLoc,
                              "'applies' takes exactly one operand");
    if (applied->getDialectNamespace() != "stablehlo")
      return parser.emitError(appliedLoc)
             << "'applies' names '" << applied->getStringRef()
             << "', not a stablehlo op";
    Type scalar = type.getInput(1);
    Block *block = new Block();
    body->push_back(block);
    Location loc = parser.getEncodedSourceLoc(appliedLoc);
    Value lhs = block->addArgument(scalar, loc);
    Value rhs = block->addArgument(scalar, loc);
    // The region has no parent op yet: the builder takes the context.
    OpBuilder builder(parser.getContext());
    builder.setInsertionPointToEnd(block);
    OperationState state(loc, *applied);
    state.addOperands({lhs, rhs});
    state.addTypes(scalar);
    Operation *combine = builder.create(state);
    ReturnOp::create(builder, loc, combine->getResults());
    return success();
  }

  if (parser.parseKeyword("reducer"))
    return failure();
  SmallVector<OpAsmParser::Argument> lhs, rhs;
  for (size_t i = 0; i < n; ++i) {
    if (parser.parseLParen() ||
        parser.parseArgument(lhs.emplace_back(), /*allowType=*/true) ||
        parser.parseComma() ||
        parser.parseArgument(rhs.emplace_back(), /*allowType=*/true) ||
        parser.parseRParen())
      return failure();
  }
  SmallVector<OpAsmParser::Argument> arguments(lhs);
  llvm::append_range(arguments, rhs);
  return parser.parseRegion(*body, arguments);
}

/// The op a compact reducer applies, or null when the body is more than one
/// binary stablehlo op on its two arguments.
static Operation *appliedOp(ReduceOp op) {
  if (op.getInputs().size() != 1 || !op.getBody().hasOneBlock())
    return nullptr;
  Block &block = op.getBody().front();
  if (block.getNumArguments() != 2 || !llvm::hasNItems(block, 2))
    return nullptr;
  Operation &combine = block.front();
  auto ret = dyn_cast<ReturnOp>(block.back());
  if (!ret || ret->getNumOperands() != 1 ||
      ret->getOperand(0) != combine.getResult(0) ||
      combine.getNumResults() != 1 || combine.getNumOperands() != 2 ||
      combine.getOperand(0) != block.getArgument(0) ||
      combine.getOperand(1) != block.getArgument(1) ||
      !combine.getAttrs().empty() || combine.getDialect() != op->getDialect())
    return nullptr;
  return &combine;
}

void ReduceOp::print(OpAsmPrinter &printer) {
  size_t n = getInputs().size();
  for (size_t i = 0; i < n; ++i) {
    printer << (i ? ", (" : "(") << getInputs()[i]
            << " init: " << getInitValues()[i] << ')';
  }
  Operation *applied = appliedOp(*this);
  if (applied)
    printer << " applies " << applied->getName();
  printer << " across dimensions = ";
  printIntList(printer, getDimensions());
  printer.printOptionalAttrDict((*this)->getAttrs(), {"dimensions"});
  printer << " : ";
  printer.printFunctionalType(*this);
  if (applied)
    return;
  Block &block = getBody().front();
  printer.printNewline();
  printer << " reducer";
  for (size_t i = 0; i < n; ++i) {
    printer << '(';
    printer.printRegionArgument(block.getArgument(i));
    printer << ", ";
    printer.printRegionArgument(block.getArgument(n + i));
    printer << ") ";
  }
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult ReduceOp::verify() {
  size_t n = getInputs().size();
  if (n == 0)
    return emitOpError("needs at least one operand");
  if (getInitValues().size() != n || getNumResults() != n)
    return emitOpError("needs one init value and one result per operand");
  Block &block = getBody().front();
  if (block.getNumArguments() != 2 * n)
    return emitOpError("reducer takes ")
           << block.getNumArguments() << " arguments, expected " << 2 * n;
  auto inputType = cast<RankedTensorType>(getInputs()[0].getType());
  for (int64_t dim : getDimensions())
    if (dim < 0 || dim >= inputType.getRank())
      return emitOpError("dimension ")
             << dim << " is out of range for an operand of rank "
             << inputType.getRank();
  return success();
}

//===----------------------------------------------------------------------===//
// WhileOp
//===----------------------------------------------------------------------===//

/// `(%iterArg = %init, ...) : types cond { ... } do { ... }`; the names are
/// the block arguments of both regions.
ParseResult WhileOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> arguments;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  if (parser.parseLParen())
    return failure();
  if (failed(parser.parseOptionalRParen())) {
    do {
      if (parser.parseArgument(arguments.emplace_back()) ||
          parser.parseEqual() || parser.parseOperand(operands.emplace_back()))
        return failure();
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseRParen())
      return failure();
  }
  SmallVector<Type> types;
  SMLoc typesLoc = parser.getCurrentLocation();
  if (!operands.empty() && (parser.parseColon() || parser.parseTypeList(types)))
    return failure();
  if (types.size() != operands.size())
    return parser.emitError(typesLoc)
           << "expected " << operands.size() << " types";
  for (auto [argument, type] : llvm::zip(arguments, types))
    argument.type = type;
  if (parser.resolveOperands(operands, types, typesLoc, result.operands))
    return failure();
  result.addTypes(types);
  if (succeeded(parser.parseOptionalKeyword("attributes")) &&
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  Region *cond = result.addRegion();
  Region *body = result.addRegion();
  if (parser.parseKeyword("cond") || parser.parseRegion(*cond, arguments) ||
      parser.parseKeyword("do") || parser.parseRegion(*body, arguments))
    return failure();
  return success();
}

void WhileOp::print(OpAsmPrinter &printer) {
  printer << '(';
  Block &cond = getCond().front();
  llvm::interleaveComma(llvm::enumerate(getOperand()), printer, [&](auto it) {
    printer.printOperand(cond.getArgument(it.index()));
    printer << " = " << it.value();
  });
  printer << ')';
  if (!getOperand().empty()) {
    printer << " : ";
    llvm::interleaveComma(getOperand().getTypes(), printer);
  }
  if (!(*this)->getAttrs().empty()) {
    printer << " attributes";
    printer.printOptionalAttrDict((*this)->getAttrs());
  }
  printer.printNewline();
  printer << " cond ";
  printer.printRegion(getCond(), /*printEntryBlockArgs=*/false);
  printer << " do ";
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

//===----------------------------------------------------------------------===//
// CustomCallOp
//===----------------------------------------------------------------------===//

/// `@target(%a, %b) {attrs} : (types) -> types`.
ParseResult CustomCallOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr target;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  if (parser.parseSymbolName(target) ||
      parser.parseOperandList(operands, AsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parseFunctionalTypeOf(parser, operands, result))
    return failure();
  result.getOrAddProperties<Properties>().call_target_name = target;
  return success();
}

void CustomCallOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printSymbolName(getCallTargetName());
  printer << '(' << getInputs() << ')';
  printer.printOptionalAttrDict((*this)->getAttrs(), {"call_target_name"});
  printer << " : ";
  printer.printFunctionalType(*this);
}
