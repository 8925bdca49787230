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
#include "llvm/Support/MathExtras.h"

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
    if (size < 1 || llvm::MulOverflow(devices, size, devices) ||
        devices > (int64_t(1) << 31))
      return op.emitError("mesh @")
             << op.getSymName() << " has an axis of size " << size
             << " or more than 2^31 devices";
  if (!mesh.getDeviceIds().empty() &&
      static_cast<int64_t>(mesh.getDeviceIds().size()) != devices)
    return op.emitError("mesh @")
           << op.getSymName() << " has " << devices << " devices but "
           << mesh.getDeviceIds().size() << " device_ids";
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t id : mesh.getDeviceIds())
    if (id < 0 || id >= devices || !seen.insert(id).second)
      return op.emitError("mesh @")
             << op.getSymName() << "'s device_ids must be a permutation of 0.."
             << devices - 1 << "; device " << id
             << (id < 0 || id >= devices ? " is out of range"
                                         : " is listed twice");
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
  // What the checks above do not cover (axis names, sizes), in the user's
  // terms: the mesh, not the trellis.mesh it became.
  std::string message;
  LogicalResult verified = success();
  {
    ScopedDiagnosticHandler capture(b.getContext(), [&](Diagnostic &diag) {
      if (message.empty())
        message = diag.str();
      return success();
    });
    verified = mlir::verify(meshOp);
  }
  if (succeeded(verified))
    return success();
  StringRef text(message);
  text.consume_front("'trellis.mesh' op ");
  return meshOp.emitError("mesh @")
         << meshOp.getSymName() << " cannot be imported: " << text;
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
                         NamedAttrList &out, StringRef what,
                         unsigned index) -> LogicalResult {
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
      } else if (Dialect *dialect = attr.getNameDialect();
                 dialect &&
                 !isa<hlo::HloDialect, chlo::ChloDialect, sdy::SdyDialect>(
                     dialect)) {
        out.append(attr); // Trellis's own and MLIR's, checked by them
      } else {
        // Other front ends add their own: nothing Trellis acts on either,
        // but the user should know it was not read.
        mlir::emitWarning(loc)
            << what << " #" << index << "'s attribute " << attr.getName()
            << " is not one the importer knows; it is dropped";
      }
    }
    return success();
  };
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    NamedAttrList attrs;
    Location loc =
        func.isExternal() ? func.getLoc() : func.getArgument(i).getLoc();
    if (failed(importAttrs(func.getArgAttrDict(i), func.getArgumentTypes()[i],
                           loc, attrs, "argument", i)))
      return failure();
    func.setArgAttrs(i, attrs.getDictionary(b.getContext()));
  }
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
    NamedAttrList attrs;
    if (failed(importAttrs(func.getResultAttrDict(i), func.getResultTypes()[i],
                           func.getLoc(), attrs, "result", i)))
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

/// Verifies the ops the import of `op` built (those from after `before` up
/// to `op`, and the ops nested in them that are not import-dialect ops yet
/// to be imported) one by one, as the verifier will verify them later. The
/// importer checks what it reads before it builds; this is its net: an op
/// it builds that its own verifier rejects is reported at the user's op, in
/// the user's terms, never as an error about an op the user did not write.
static LogicalResult verifyBuilt(Operation *op, Operation *before) {
  Block *block = op->getBlock();
  Operation *first = before ? before->getNextNode() : &block->front();
  std::string message;
  Operation *invalid = nullptr;
  {
    ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error && message.empty())
        message = diag.str();
      return success();
    });
    SymbolTableCollection tables;
    for (Operation *built = first; built && built != op;
         built = built->getNextNode()) {
      WalkResult result = built->walk<WalkOrder::PreOrder>([&](Operation *o) {
        if (isImportDialect(o))
          return WalkResult::skip();
        if (failed(mlir::verify(o, /*verifyRecursively=*/false))) {
          invalid = o;
          return WalkResult::interrupt();
        }
        auto user = dyn_cast<SymbolUserOpInterface>(o);
        if (user && failed(user.verifySymbolUses(tables))) {
          invalid = o;
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (result.wasInterrupted())
        break;
    }
  }
  if (!invalid)
    return success();
  // The built op's message without its "'spmd.x' op " prefix.
  std::string prefix =
      ("'" + invalid->getName().getStringRef() + "' op ").str();
  StringRef text(message);
  text.consume_front(prefix);
  return op->emitOpError("cannot be imported: it becomes an invalid '")
         << invalid->getName() << "' (" << text
         << "); check the op's attributes and types";
}

/// The last net: the whole imported module must verify. Every op it holds
/// was built at the location of the op it was imported from, so an error is
/// reported there, in terms of what that op became.
LogicalResult Importer::verifyImported() {
  std::string message;
  std::optional<Location> where;
  LogicalResult verified = success();
  {
    ScopedDiagnosticHandler capture(module.getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error && !where) {
        message = diag.str();
        where = diag.getLocation();
      }
      return success();
    });
    verified = mlir::verify(module);
  }
  if (succeeded(verified))
    return success();
  StringRef text(message), built;
  if (text.consume_front("'")) {
    auto [name, rest] = text.split("' op ");
    built = name;
    text = rest;
  }
  InFlightDiagnostic diag = mlir::emitError(*where, "cannot be imported: ");
  if (!built.empty())
    diag << "it becomes an invalid '" << built << "' (" << text << ")";
  else
    diag << text;
  return diag << "; check the op's attributes and types";
}

LogicalResult Importer::importOp(Operation *op) {
  if (isa<hlo::ReturnOp, sdy::ReturnOp>(op))
    return op->emitError("'") << op->getName() << "' outside its parent op";
  if (failed(checkTypes(op)))
    return failure();
  Operation *before = op->getPrevNode();
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
          .Case([&](hlo::ConvolutionOp o) { return one(importConvolution(o)); })
          .Case([&](hlo::ReduceOp o) { return importReduce(o); })
          .Case(
              [&](hlo::ReduceWindowOp o) { return one(importReduceWindow(o)); })
          .Case([&](hlo::SelectAndScatterOp o) {
            return one(importSelectAndScatter(o));
          })
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
  if (replacement->size() != op->getNumResults())
    return op->emitOpError("cannot be imported: it has ")
           << op->getNumResults() << " results but imports as "
           << replacement->size() << " values";
  for (auto [i, value, result] :
       llvm::enumerate(*replacement, op->getResults()))
    if (value.getType() != result.getType())
      return op->emitOpError("cannot be imported: result #")
             << i << " has type " << result.getType() << " but imports as "
             << value.getType();
  if (failed(verifyBuilt(op, before)))
    return failure();
  op->replaceAllUsesWith(*replacement);
  op->erase();
  return success();
}

LogicalResult Importer::run() {
  // Every error the import reports has a location in the file. JAX prints
  // the module, its functions and their returns at loc(unknown) (and
  // arguments at a bare name): a diagnostic there, or one raised without a
  // location, is reported again at the first op with a file location in
  // the op being imported (or its function, or the module), keeping its
  // own location too.
  Operation *current = nullptr;
  auto fileLocIn = [](Operation *root) -> std::optional<Location> {
    std::optional<Location> found;
    root->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!op->getLoc()->findInstanceOf<FileLineColLoc>())
        return WalkResult::advance();
      found = op->getLoc();
      return WalkResult::interrupt();
    });
    return found;
  };
  ScopedDiagnosticHandler relocate(
      module.getContext(), [&](Diagnostic &diag) -> LogicalResult {
        if (diag.getLocation()->findInstanceOf<FileLineColLoc>())
          return failure(); // on to the next handler
        std::optional<Location> fallback;
        for (Operation *op = current; op && !fallback; op = op->getParentOp())
          fallback = fileLocIn(op);
        if (!fallback)
          fallback = fileLocIn(module);
        if (!fallback)
          return failure();
        Location loc =
            FusedLoc::get(module.getContext(), {diag.getLocation(), *fallback});
        std::string text = diag.str();
        InFlightDiagnostic again =
            diag.getSeverity() == DiagnosticSeverity::Error
                ? mlir::emitError(loc, text)
            : diag.getSeverity() == DiagnosticSeverity::Warning
                ? mlir::emitWarning(loc, text)
                : mlir::emitRemark(loc, text);
        for (Diagnostic &note : diag.getNotes()) {
          std::string noteText = note.str();
          // The op's text (at an unknown location, often the module): noise.
          if (StringRef(noteText).starts_with("see current operation"))
            continue;
          Location noteLoc = note.getLocation();
          if (!noteLoc->findInstanceOf<FileLineColLoc>())
            noteLoc = *fallback;
          again.attachNote(noteLoc) << noteText;
        }
        return success();
      });
  if (failed(runImport(current)))
    return failure();
  return success();
}

LogicalResult Importer::runImport(Operation *&current) {
  if (failed(importSdyRoundTrip()) || failed(importModuleAttributes()) ||
      failed(makeSignless()))
    return failure();
  if (failed(importGspmdMesh()))
    return failure();
  for (auto func : module.getOps<func::FuncOp>()) {
    current = func;
    if (failed(importSignature(func)))
      return failure();
  }
  current = nullptr;
  if (failed(outlineGspmdManualRegions()))
    return failure();
  if (failed(inlineManualCalls()))
    return failure();
  // Program order; reducer bodies are read by their reduce, not imported.
  SmallVector<Operation *> worklist;
  // Terminators go with their parents; reducers are read by their op.
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isImportDialect(op) && !isa<hlo::ReturnOp, sdy::ReturnOp>(op))
      worklist.push_back(op);
    return isa<hlo::ReduceOp, hlo::AllReduceOp, hlo::ReduceScatterOp,
               hlo::ScatterOp, hlo::ReduceWindowOp, hlo::SelectAndScatterOp>(op)
               ? WalkResult::skip()
               : WalkResult::advance();
  });
  for (Operation *op : worklist) {
    if (erased.contains(op))
      continue;
    current = op;
    if (failed(importOp(op)))
      return failure();
  }
  current = nullptr;
  // Discardable Shardy attributes on ops that are not imported (func.call).
  WalkResult leftover = module.walk([&](Operation *op) {
    if (!op->hasAttr(kSdySharding))
      return WalkResult::advance();
    op->emitError("sdy.sharding on '")
        << op->getName() << "' is not supported yet";
    return WalkResult::interrupt();
  });
  if (leftover.wasInterrupted())
    return failure();
  relaxVarianceChecks();
  return verifyImported();
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
