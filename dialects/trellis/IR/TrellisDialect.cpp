//===- TrellisDialect.cpp - The global-view sharding dialect --------------===//

#include "dialects/trellis/IR/TrellisDialect.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "dialects/trellis/IR/TrellisOps.h"
#include "dialects/trellis/Interfaces/ShardingRule.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include "dialects/trellis/IR/Inlining.h"

using namespace mlir;
using namespace mlir::trellis;

#include "dialects/trellis/IR/TrellisDialect.cpp.inc"

void TrellisDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dialects/trellis/IR/TrellisOps.cpp.inc"
      >();
  addInterfaces<trellis::InlineEverything>();
}

/// Checks a `trellis.sharding` discardable attribute given to a value of
/// `type` against the mesh it names.
static LogicalResult verifyValueSharding(Operation *op, Attribute attr,
                                         Type type, StringRef what) {
  auto sharding = dyn_cast<ShardingAttr>(attr);
  if (!sharding)
    return op->emitError() << "'" << TrellisDialect::kShardingAttrName
                           << "' on " << what
                           << " must be a #trellis.sharding attribute";
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return op->emitError() << "'" << TrellisDialect::kShardingAttrName
                           << "' on " << what << " needs a ranked tensor, got "
                           << type;
  if (sharding.getDims().size() != static_cast<size_t>(tensorType.getRank()))
    return op->emitError() << "sharding of " << what << " has "
                           << sharding.getDims().size()
                           << " dimensions but the tensor has rank "
                           << tensorType.getRank();
  MeshOp mesh = lookupMesh(op, sharding.getMesh());
  if (!mesh)
    return op->emitError() << "sharding of " << what << " names unknown mesh "
                           << sharding.getMesh();
  // The partitioner pads a dimension its axes do not divide.
  return verifyShardingForShape(
      sharding, tensorType.getShape(), mesh, [&] { return op->emitError(); },
      /*allowUneven=*/true);
}

LogicalResult TrellisDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  if (attr.getName() == kArgShardingsAttrName) {
    auto array = dyn_cast<ArrayAttr>(attr.getValue());
    if (op->getNumRegions() != 1 || op->getRegion(0).empty())
      return op->emitError()
             << "'" << kArgShardingsAttrName << "' needs an op with one region";
    Block &block = op->getRegion(0).front();
    if (!array || array.size() != block.getNumArguments())
      return op->emitError()
             << "'" << kArgShardingsAttrName
             << "' must be an array of one sharding per region argument ("
             << block.getNumArguments() << ")";
    for (auto [index, element] : llvm::enumerate(array))
      if (failed(verifyValueSharding(
              op, element, block.getArgument(index).getType(),
              ("region argument #" + llvm::Twine(index)).str())))
        return failure();
    return success();
  }
  if (attr.getName() == kRuntimeABIVersionAttrName) {
    auto version = dyn_cast<IntegerAttr>(attr.getValue());
    if (!isa<ModuleOp>(op) || !version || !version.getType().isInteger(32))
      return op->emitError() << "'" << kRuntimeABIVersionAttrName
                             << "' must be an i32 on a module";
    return success();
  }
  if (attr.getName() == kGradAttrName) {
    auto indices = dyn_cast<ArrayAttr>(attr.getValue());
    bool valid = isa<UnitAttr>(attr.getValue()) ||
                 (indices && llvm::all_of(indices, [](Attribute a) {
                    auto index = dyn_cast<IntegerAttr>(a);
                    return index && index.getInt() >= 0;
                  }));
    if (!isa<FunctionOpInterface>(op) || !valid)
      return op->emitError() << "'" << kGradAttrName
                             << "' must be a unit attribute or an array of "
                                "argument indices on a function";
    return success();
  }
  if (attr.getName() == kShardingOriginAttrName) {
    auto array = dyn_cast<ArrayAttr>(attr.getValue());
    if (!isa<StringAttr>(attr.getValue()) &&
        !(array && llvm::all_of(array, llvm::IsaPred<StringAttr>)))
      return op->emitError() << "'" << kShardingOriginAttrName
                             << "' must be a string or an array of strings";
    return success();
  }
  if (attr.getName() == kRuleAttrName) {
    auto text = dyn_cast<StringAttr>(attr.getValue());
    if (!text)
      return op->emitError() << "'" << kRuleAttrName << "' must be a string";
    return parseDeclaredRule(op, text.getValue(),
                             [&] { return op->emitError(); });
  }
  if (attr.getName() != kShardingAttrName)
    return op->emitError() << "unknown trellis attribute " << attr.getName();
  // One sharding per result: a bare sharding for a single result, an array
  // otherwise.
  if (auto array = dyn_cast<ArrayAttr>(attr.getValue())) {
    if (array.size() != op->getNumResults())
      return op->emitError()
             << "'" << kShardingAttrName << "' has " << array.size()
             << " shardings for " << op->getNumResults() << " results";
    for (auto [index, element] : llvm::enumerate(array))
      if (failed(verifyValueSharding(op, element,
                                     op->getResult(index).getType(),
                                     ("result #" + llvm::Twine(index)).str())))
        return failure();
    return success();
  }
  if (op->getNumResults() != 1)
    return op->emitError() << "'" << kShardingAttrName << "' on an op with "
                           << op->getNumResults()
                           << " results must be an array of shardings";
  return verifyValueSharding(op, attr.getValue(), op->getResult(0).getType(),
                             "result #0");
}

LogicalResult TrellisDialect::verifyRegionArgAttribute(Operation *op,
                                                       unsigned regionIndex,
                                                       unsigned argIndex,
                                                       NamedAttribute attr) {
  if (attr.getName() == kNameAttrName ||
      attr.getName() == kShardingOriginAttrName) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError()
             << "'" << attr.getName().getValue() << "' must be a string";
    return success();
  }
  if (attr.getName() != kShardingAttrName)
    return op->emitError() << "unknown trellis argument attribute "
                           << attr.getName();
  Region &region = op->getRegion(regionIndex);
  Type type;
  if (!region.empty())
    type = region.getArgument(argIndex).getType();
  else if (auto func = dyn_cast<FunctionOpInterface>(op))
    type = func.getArgumentTypes()[argIndex];
  if (!type)
    return success();
  return verifyValueSharding(op, attr.getValue(), type,
                             ("argument #" + llvm::Twine(argIndex)).str());
}

LogicalResult TrellisDialect::verifyRegionResultAttribute(Operation *op,
                                                          unsigned regionIndex,
                                                          unsigned resultIndex,
                                                          NamedAttribute attr) {
  if (attr.getName() == kNameAttrName) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError() << "'" << kNameAttrName << "' must be a string";
    return success();
  }
  if (attr.getName() != kShardingAttrName)
    return op->emitError() << "unknown trellis result attribute "
                           << attr.getName();
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    return success();
  return verifyValueSharding(op, attr.getValue(),
                             func.getResultTypes()[resultIndex],
                             ("result #" + llvm::Twine(resultIndex)).str());
}
