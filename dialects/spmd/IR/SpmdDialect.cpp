//===- SpmdDialect.cpp - Per-device programs and collectives --------------===//

#include "dialects/spmd/IR/SpmdDialect.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

#include "dialects/trellis/IR/Inlining.h"

using namespace mlir;
using namespace mlir::spmd;

#include "dialects/spmd/IR/SpmdDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/spmd/IR/SpmdAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/spmd/IR/SpmdTypes.cpp.inc"

void SpmdDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/spmd/IR/SpmdTypes.cpp.inc"
      >();
}

void SpmdDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/spmd/IR/SpmdAttrs.cpp.inc"
      >();
}

void SpmdDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "dialects/spmd/IR/SpmdOps.cpp.inc"
      >();
  addInterfaces<trellis::InlineEverything>();
}

Operation *SpmdDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

VaryAttr mlir::spmd::getVaryEncoding(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return dyn_cast_or_null<VaryAttr>(tensor.getEncoding());
  return {};
}

Type mlir::spmd::stripVaryEncoding(Type type) {
  if (auto future = dyn_cast<FutureType>(type)) {
    Type held = stripVaryEncoding(future.getValueType());
    return held == future.getValueType()
               ? type
               : FutureType::get(type.getContext(), held);
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !getVaryEncoding(tensor))
    return type;
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType());
}

// #spmd.vary<["i", "j"]>
Attribute VaryAttr::parse(AsmParser &parser, Type) {
  SmallVector<StringAttr> axes;
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square,
          [&]() -> ParseResult {
            std::string axis;
            if (parser.parseString(&axis))
              return failure();
            axes.push_back(parser.getBuilder().getStringAttr(axis));
            return success();
          }) ||
      parser.parseGreater())
    return {};
  return VaryAttr::get(parser.getContext(), axes);
}

void VaryAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(getAxes(), printer, [&](StringAttr axis) {
    printer.printString(axis.getValue());
  });
  printer << "]>";
}

LogicalResult SpmdDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  if (attr.getName() == kNonlinearAttrName) {
    if (!isa<FunctionOpInterface>(op) || !isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << kNonlinearAttrName
                             << "' must be a unit attribute on a function "
                                "argument";
    return success();
  }
  return op->emitError() << "unknown spmd argument attribute " << attr.getName()
                         << " on argument #" << argIndex;
}

LogicalResult SpmdDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == kMeshAttrName) {
    auto meshRef = dyn_cast<FlatSymbolRefAttr>(attr.getValue());
    if (!meshRef || !isa<FunctionOpInterface>(op))
      return op->emitError()
             << "'" << kMeshAttrName << "' must be a mesh symbol on a function";
    if (!trellis::lookupMesh(op, meshRef))
      return op->emitError()
             << "'" << kMeshAttrName << "' names unknown mesh " << meshRef;
    return success();
  }
  if (attr.getName() == kManualAxesAttrName) {
    auto axes = dyn_cast<ArrayAttr>(attr.getValue());
    if (!axes || !llvm::all_of(axes, llvm::IsaPred<StringAttr>))
      return op->emitError() << "'" << kManualAxesAttrName
                             << "' must be an array of axis names";
    auto meshRef = op->getAttrOfType<FlatSymbolRefAttr>(kMeshAttrName);
    if (!meshRef)
      return op->emitError() << "'" << kManualAxesAttrName << "' needs '"
                             << kMeshAttrName << "'";
    if (trellis::MeshOp mesh = trellis::lookupMesh(op, meshRef))
      return trellis::verifyAxesExist(
          llvm::to_vector(axes.getAsRange<StringAttr>()), mesh,
          [&] { return op->emitError(); });
    return success();
  }
  if (attr.getName() == kSitesAttrName) {
    if (!isa<ArrayAttr>(attr.getValue()))
      return op->emitError() << "'" << kSitesAttrName
                             << "' must be an array of site dictionaries";
    return success();
  }
  if (attr.getName() == kDeviceFuncAttrName) {
    if (!isa<ShardMapOp>(op) || !isa<FlatSymbolRefAttr>(attr.getValue()))
      return op->emitError() << "'" << kDeviceFuncAttrName
                             << "' must name a function on a spmd.shard_map";
    return success();
  }
  if (attr.getName() == kTransposeAttrName) {
    if (!isa<FunctionOpInterface>(op) || !isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << kTransposeAttrName
                             << "' must be a unit attribute on a function";
    return success();
  }
  return op->emitError() << "unknown spmd attribute " << attr.getName();
}
