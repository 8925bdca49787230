//===- ImportStableHLO.cpp - StableHLO with shardings to Trellis IR -------===//
//
// The pass and the importer's driver: module attributes, meshes, shardings
// and signatures, then every op in program order. Each StableHLO op
// becomes linalg / tensor / arith / math / scf ops on the same tensor types
// (ImportOps.cpp, ImportControlFlow.cpp), each manual computation a
// shard_map (ImportManual.cpp), each Shardy sharding a Trellis sharding.
// Every op or attribute not modelled stops the import with an error at its
// location; nothing is dropped.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Elementwise.h"
#include "lib/Import/Importer.h"

#include "mlir/IR/IRMapping.h"
#include "trellis/Import/Passes.h"

#include "dialects/trellis/IR/ShardingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISIMPORTSTABLEHLO
#include "trellis/Import/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::import;

//===----------------------------------------------------------------------===//
// Helpers shared by the importer's files
//===----------------------------------------------------------------------===//

bool mlir::trellis::import::isImportDialect(Operation *op) {
  return isa_and_nonnull<hlo::HloDialect, chlo::ChloDialect, sdy::SdyDialect>(
      op->getDialect());
}

/// Element types the rest of Trellis computes with.
static bool isSupportedElement(Type type) {
  if (type.isBF16() || type.isF16() || type.isF32() || type.isF64())
    return true;
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.isSignless() &&
         llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth());
}

/// Checks that `op`'s operands and results are static tensors of supported
/// element types.
LogicalResult mlir::trellis::import::checkTypes(Operation *op) {
  for (Type type :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      continue;
    if (!tensor.hasStaticShape())
      return op->emitError("dynamic shapes are not supported: ") << type;
    if (!isSupportedElement(tensor.getElementType()))
      return op->emitError("element type ")
             << tensor.getElementType()
             << " is not supported yet (floats bf16, f16, f32, f64 and "
                "signless integers i1 to i64 are)";
  }
  return success();
}

Value mlir::trellis::import::emptyOf(OpBuilder &b, Location loc,
                                     RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

/// The scalar in a 0-d tensor: a scalar constant when the tensor is a
/// constant (so a zero init is recognisably zero), else a tensor.extract.
Value mlir::trellis::import::scalarOf(OpBuilder &b, Location loc,
                                      Value tensor) {
  DenseElementsAttr dense;
  if (matchPattern(tensor, m_Constant(&dense)) && dense.isSplat())
    return arith::ConstantOp::create(b, loc, dense.getSplatValue<TypedAttr>());
  return tensor::ExtractOp::create(b, loc, tensor, ValueRange());
}

/// `value` (a 0-d tensor) broadcast to `type`; other values unchanged.
Value mlir::trellis::import::broadcastScalar(OpBuilder &b, Location loc,
                                             Value value,
                                             RankedTensorType type) {
  auto from = cast<RankedTensorType>(value.getType());
  if (from.getRank() != 0 || type.getRank() == 0)
    return value;
  auto init = emptyOf(b, loc, type.clone(from.getElementType()));
  SmallVector<int64_t> dims =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return linalg::BroadcastOp::create(b, loc, value, init, dims)->getResult(0);
}

SmallVector<Value> mlir::trellis::import::cloneBody(OpBuilder &b,
                                                    func::FuncOp callee,
                                                    ValueRange args) {
  Block &body = callee.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArguments(), args);
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  return llvm::map_to_vector(body.getTerminator()->getOperands(), [&](Value v) {
    return mapping.lookupOrDefault(v);
  });
}

/// Whether `values` holds each of 0..bound-1 at most once, all in range.
bool mlir::trellis::import::areDistinctDims(ArrayRef<int64_t> values,
                                            int64_t bound) {
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t v : values)
    if (v < 0 || v >= bound || !seen.insert(v).second)
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Module, meshes and shardings
//===----------------------------------------------------------------------===//

LogicalResult Importer::importModuleAttributes() {
  SmallVector<StringAttr> drop;
  for (NamedAttribute attr : module->getAttrs()) {
    StringRef name = attr.getName().getValue();
    if (name == "mhlo.num_replicas") {
      auto value = dyn_cast<IntegerAttr>(attr.getValue());
      if (!value || value.getInt() != 1)
        return module.emitError("mhlo.num_replicas = ")
               << attr.getValue()
               << ": replica parallelism is not supported (only partitions)";
    } else if (!name.starts_with("mhlo.") && !name.starts_with("jax.")) {
      continue;
    }
    drop.push_back(attr.getName());
  }
  std::optional<int64_t> &partitions = numPartitions;
  if (auto attr = module->getAttrOfType<IntegerAttr>("mhlo.num_partitions"))
    partitions = attr.getInt();
  for (StringAttr name : drop)
    module->removeAttr(name);

  for (auto mesh : llvm::make_early_inc_range(module.getOps<sdy::MeshOp>()))
    if (failed(importMesh(mesh)))
      return failure();
  if (partitions && *partitions > 1)
    for (auto &[name, devices] : meshDevices)
      if (devices != 1 && devices != *partitions)
        return module.emitError("mhlo.num_partitions is ")
               << *partitions << " but mesh @" << name << " has " << devices
               << " devices";
  return success();
}

LogicalResult Importer::importMesh(sdy::MeshOp op) {
  sdy::MeshAttr mesh = op.getMesh();
  if (mesh.getAxisNames().empty())
    return op.emitError("mesh @")
           << op.getSymName()
           << " has no axes: maximal meshes are not supported yet";
  int64_t devices = 1;
  for (int64_t size : mesh.getAxisSizes())
    devices *= size;
  if (!mesh.getDeviceIds().empty() &&
      static_cast<int64_t>(mesh.getDeviceIds().size()) != devices)
    return op.emitError("mesh @")
           << op.getSymName() << " has " << devices << " devices but "
           << mesh.getDeviceIds().size() << " device_ids";
  meshDevices[op.getSymName()] = devices;
  b.setInsertionPoint(op);
  SmallVector<Attribute> names, types;
  for (StringAttr name : mesh.getAxisNames()) {
    names.push_back(name);
    types.push_back(AxisTypeAttr::get(b.getContext(), AxisType::Auto));
  }
  DenseI64ArrayAttr deviceIds;
  if (!mesh.getDeviceIds().empty())
    deviceIds = b.getDenseI64ArrayAttr(mesh.getDeviceIds());
  auto meshOp =
      MeshOp::create(b, op.getLoc(), op.getSymNameAttr(), b.getArrayAttr(names),
                     b.getDenseI64ArrayAttr(mesh.getAxisSizes()),
                     b.getArrayAttr(types), deviceIds);
  op.erase();
  return mlir::verify(meshOp);
}

FailureOr<ShardingAttr>
Importer::importSharding(Location where, sdy::TensorShardingAttr sharding,
                         Type type) {
  auto emitError = [&] { return mlir::emitError(where); };
  SmallVector<DimShardingAttr> dims;
  for (sdy::DimShardingAttr dim : sharding.getDims()) {
    if (failed(DimShardingAttr::verify(emitError, dim.getAxes(),
                                       dim.getClosed(), dim.getPriority())))
      return failure();
    dims.push_back(DimShardingAttr::get(b.getContext(), dim.getAxes(),
                                        dim.getClosed(), dim.getPriority()));
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (tensor && static_cast<int64_t>(dims.size()) != tensor.getRank())
    return emitError() << "sharding " << sharding << " has " << dims.size()
                       << " dimensions for a tensor of rank "
                       << tensor.getRank();
  if (failed(ShardingAttr::verify(emitError, sharding.getMesh(), dims,
                                  sharding.getReplicated(),
                                  sharding.getUnreduced())))
    return failure();
  auto result =
      ShardingAttr::get(b.getContext(), sharding.getMesh(), dims,
                        sharding.getReplicated(), sharding.getUnreduced());
  auto mesh =
      SymbolTable::lookupNearestSymbolFrom<MeshOp>(module, sharding.getMesh());
  if (!mesh)
    return emitError() << "sharding names an unknown mesh "
                       << sharding.getMesh();
  // Names the axes where the user wrote them. A dimension the axes do not
  // divide is fine (JAX pads it under jit; so does the partitioner).
  std::optional<ArrayRef<int64_t>> shape;
  if (tensor)
    shape = tensor.getShape();
  if (failed(verifyShardingForShape(result, shape, mesh, emitError,
                                    /*allowUneven=*/true)))
    return failure();
  return result;
}

LogicalResult Importer::importSignature(func::FuncOp func) {
  // Errors point at the argument (or, for results, the function).
  auto importAttrs = [&](DictionaryAttr attrs, Type type, Location loc,
                         NamedAttrList &out) -> LogicalResult {
    for (NamedAttribute attr :
         attrs ? attrs.getValue() : ArrayRef<NamedAttribute>()) {
      StringRef name = attr.getName().getValue();
      if (name == kSdySharding) {
        auto sharding = dyn_cast<sdy::TensorShardingAttr>(attr.getValue());
        if (!sharding)
          return mlir::emitError(loc, "sdy.sharding must be a #sdy.sharding");
        FailureOr<ShardingAttr> imported = importSharding(loc, sharding, type);
        if (failed(imported))
          return failure();
        out.set(kTrellisSharding, *imported);
      } else if (name == "jax.result_info" || name == "jax.arg_info") {
        auto text = dyn_cast<StringAttr>(attr.getValue());
        if (text && !text.getValue().empty())
          out.set(kTrellisName, text);
      } else if (name == "mhlo.sharding") {
        auto text = dyn_cast<StringAttr>(attr.getValue());
        if (!text)
          return mlir::emitError(loc, "mhlo.sharding must be a string");
        if (text.getValue().empty())
          continue;
        FailureOr<ShardingAttr> imported =
            gspmdSharding(loc, text.getValue(), type);
        if (failed(imported))
          return failure();
        if (*imported)
          out.set(kTrellisSharding, *imported);
      } else if (name.starts_with("mhlo.") || name.starts_with("jax.") ||
                 name == "tf.aliasing_output") {
        // Layouts, memory kinds, donation: nothing Trellis acts on.
      } else {
        out.append(attr);
      }
    }
    return success();
  };
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    NamedAttrList attrs;
    Location loc =
        func.isExternal() ? func.getLoc() : func.getArgument(i).getLoc();
    if (failed(importAttrs(func.getArgAttrDict(i), func.getArgumentTypes()[i],
                           loc, attrs)))
      return failure();
    func.setArgAttrs(i, attrs.getDictionary(b.getContext()));
  }
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
    NamedAttrList attrs;
    if (failed(importAttrs(func.getResultAttrDict(i), func.getResultTypes()[i],
                           func.getLoc(), attrs)))
      return failure();
    func.setResultAttrs(i, attrs.getDictionary(b.getContext()));
  }
  return success();
}

/// An op's `sdy.sharding` (one sharding per result) becomes a sharding
/// constraint on each result.
LogicalResult Importer::importResultShardings(Operation *op,
                                              MutableArrayRef<Value> results) {
  Attribute attr = op->getDiscardableAttr(kSdySharding);
  if (!attr)
    return success();
  auto perValue = dyn_cast<sdy::TensorShardingPerValueAttr>(attr);
  if (!perValue)
    return op->emitError("sdy.sharding on an op must be a "
                         "#sdy.sharding_per_value");
  if (perValue.getShardings().size() != results.size())
    return op->emitError("sdy.sharding gives ")
           << perValue.getShardings().size() << " shardings for "
           << results.size() << " results";
  // The constrained values replace the op's results.
  for (auto [sharding, result] : llvm::zip(perValue.getShardings(), results)) {
    FailureOr<Value> constrained = importConstraint(op, result, sharding);
    if (failed(constrained))
      return failure();
    result = *constrained;
  }
  return success();
}

FailureOr<Value> Importer::importConstraint(Operation *op, Value input,
                                            sdy::TensorShardingAttr sharding) {
  FailureOr<ShardingAttr> imported =
      importSharding(op->getLoc(), sharding, input.getType());
  if (failed(imported))
    return failure();
  return ShardingConstraintOp::create(b, op->getLoc(), input.getType(), input,
                                      *imported)
      .getResult();
}

LogicalResult Importer::importOp(Operation *op) {
  if (isa<hlo::ReturnOp, sdy::ReturnOp>(op))
    return op->emitError("'") << op->getName() << "' outside its parent op";
  if (failed(checkTypes(op)))
    return failure();
  b.setInsertionPoint(op);
  using Values = SmallVector<Value>;
  auto one = [](FailureOr<Value> value) -> FailureOr<Values> {
    if (failed(value))
      return failure();
    return Values{*value};
  };
  FailureOr<Values> replacement =
      llvm::TypeSwitch<Operation *, FailureOr<Values>>(op)
          .Case([&](hlo::ConstantOp o) { return one(importConstant(o)); })
          .Case([&](hlo::IotaOp o) { return one(importIota(o)); })
          .Case([&](hlo::BroadcastInDimOp o) {
            return one(importBroadcastInDim(o));
          })
          .Case([&](hlo::ReshapeOp o) { return one(importReshape(o)); })
          .Case([&](hlo::TransposeOp o) { return one(importTranspose(o)); })
          .Case([&](hlo::ReverseOp o) { return one(importReverse(o)); })
          .Case([&](hlo::SliceOp o) { return one(importSlice(o)); })
          .Case([&](hlo::ConcatenateOp o) { return one(importConcatenate(o)); })
          .Case([&](hlo::PadOp o) { return one(importPad(o)); })
          .Case([&](hlo::DotGeneralOp o) { return one(importDotGeneral(o)); })
          .Case([&](hlo::ReduceOp o) { return importReduce(o); })
          .Case(
              [&](hlo::ReduceWindowOp o) { return one(importReduceWindow(o)); })
          .Case([&](sdy::ManualComputationOp o) {
            return importManualComputation(o);
          })
          .Case<hlo::AllReduceOp, hlo::AllGatherOp, hlo::ReduceScatterOp,
                hlo::AllToAllOp, hlo::CollectivePermuteOp>(
              [&](Operation *o) { return importCollective(o); })
          .Case([&](hlo::CustomCallOp o) { return importCustomCall(o); })
          .Case([&](hlo::PartitionIdOp o) { return one(importPartitionId(o)); })
          .Case([&](hlo::GatherOp o) { return one(importGather(o)); })
          .Case([&](chlo::TopKOp o) { return importTopK(o); })
          .Case([&](hlo::ScatterOp o) { return one(importScatter(o)); })
          .Case(
              [&](hlo::DynamicSliceOp o) { return one(importDynamicSlice(o)); })
          .Case([&](hlo::DynamicUpdateSliceOp o) {
            return one(importDynamicUpdateSlice(o));
          })
          .Case([&](hlo::WhileOp o) { return importWhile(o); })
          .Case([&](hlo::IfOp o) { return importIf(o); })
          .Case([&](hlo::CaseOp o) { return importCase(o); })
          .Case([&](hlo::OptimizationBarrierOp o) -> FailureOr<Values> {
            // A scheduling hint for XLA; Trellis schedules its own way.
            return Values(o.getOperand());
          })
          .Case([&](sdy::ShardingGroupOp o) -> FailureOr<Values> {
            ShardingGroupOp::create(b, o.getLoc(), o.getInput(),
                                    o.getGroupIdAttr());
            return Values();
          })
          .Case([&](sdy::PropagationBarrierOp o) {
            std::string direction = o.getAllowedDirection().lower();
            return one(PropagationBarrierOp::create(b, o.getLoc(),
                                                    o.getInput().getType(),
                                                    o.getInput(), direction)
                           .getResult());
          })
          .Case<sdy::ShardingConstraintOp, sdy::ReshardOp>([&](Operation *o) {
            Value input = o->getOperand(0);
            auto sharding =
                cast<sdy::TensorShardingAttr>(o->getAttr("sharding"));
            return one(importConstraint(o, input, sharding));
          })
          .Default([&](Operation *o) -> FailureOr<Values> {
            if (isImportElementwise(o))
              return one(importElementwise(o));
            return o->emitError("'")
                   << o->getName() << "' is not supported by the importer yet";
          });
  if (failed(replacement))
    return failure();
  if (failed(importResultShardings(op, *replacement)))
    return failure();
  op->replaceAllUsesWith(*replacement);
  op->erase();
  return success();
}

static bool isUnsignedElement(Type type) {
  auto integer = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  return integer && integer.isUnsigned();
}

static Type signlessOf(Type type) {
  auto integer = cast<IntegerType>(getElementTypeOrSelf(type));
  Type element = IntegerType::get(type.getContext(), integer.getWidth());
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(element);
  return element;
}

LogicalResult Importer::makeSignless() {
  for (auto func : module.getOps<func::FuncOp>()) {
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      if (isUnsignedElement(type))
        return mlir::emitError(func.isExternal() ? func.getLoc()
                                                 : func.getArgument(i).getLoc())
               << "unsigned arguments are not supported yet: " << type;
    for (Type type : func.getResultTypes())
      if (isUnsignedElement(type))
        return func.emitError("unsigned results are not supported yet: ")
               << type;
  }
  MLIRContext *ctx = module.getContext();
  module.walk([&](Operation *op) {
    if (!isImportDialect(op))
      return;
    SmallVector<bool> flags;
    for (Type type :
         llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      flags.push_back(isUnsignedElement(type));
    if (llvm::is_contained(flags, true))
      op->setAttr(kUnsignedAttr, DenseBoolArrayAttr::get(ctx, flags));
  });
  module.walk([&](Operation *op) {
    for (Value result : op->getResults())
      if (isUnsignedElement(result.getType()))
        result.setType(signlessOf(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isUnsignedElement(arg.getType()))
            arg.setType(signlessOf(arg.getType()));
    if (auto constant = dyn_cast<hlo::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (dense && isUnsignedElement(dense.getType()))
        constant.setValueAttr(
            dense.bitcast(getElementTypeOrSelf(signlessOf(dense.getType()))));
    }
  });
  return success();
}

LogicalResult Importer::run() {
  if (failed(importSdyRoundTrip()) || failed(importModuleAttributes()) ||
      failed(makeSignless()))
    return failure();
  if (failed(importGspmdMesh()))
    return failure();
  for (auto func : module.getOps<func::FuncOp>())
    if (failed(importSignature(func)))
      return failure();
  if (failed(outlineGspmdManualRegions()))
    return failure();
  // Program order; reducer bodies are read by their reduce, not imported.
  SmallVector<Operation *> worklist;
  // Terminators go with their parents; reducers are read by their op.
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isImportDialect(op) && !isa<hlo::ReturnOp, sdy::ReturnOp>(op))
      worklist.push_back(op);
    return isa<hlo::ReduceOp, hlo::AllReduceOp, hlo::ReduceScatterOp,
               hlo::ScatterOp, hlo::ReduceWindowOp>(op)
               ? WalkResult::skip()
               : WalkResult::advance();
  });
  for (Operation *op : worklist)
    if (!erased.contains(op) && failed(importOp(op)))
      return failure();
  // Discardable Shardy attributes on ops that are not imported (func.call).
  WalkResult leftover = module.walk([&](Operation *op) {
    if (!op->hasAttr(kSdySharding))
      return WalkResult::advance();
    op->emitError("sdy.sharding on '")
        << op->getName() << "' is not supported yet";
    return WalkResult::interrupt();
  });
  return failure(leftover.wasInterrupted());
}

namespace {

struct TrellisImportStableHLOPass
    : public mlir::trellis::impl::TrellisImportStableHLOBase<
          TrellisImportStableHLOPass> {
  void runOnOperation() override {
    if (failed(Importer(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace
