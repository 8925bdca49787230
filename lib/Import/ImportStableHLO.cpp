//===- ImportStableHLO.cpp - StableHLO with shardings to Trellis IR -------===//
//
// Rewrites a module as JAX prints it into Trellis IR, op by op in program
// order: each StableHLO op becomes linalg / tensor / arith / math ops on the
// same tensor types, each Shardy sharding becomes a Trellis sharding. Every
// op or attribute not modelled stops the import with an error at its
// location; nothing is dropped.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Collectives.h"
#include "lib/Import/Elementwise.h"
#include "lib/Import/ImportDialects.h"
#include "lib/Import/Passes.h"

#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "dialects/trellis/IR/TrellisOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISIMPORTSTABLEHLO
#include "lib/Import/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::trellis;

namespace {

constexpr StringLiteral kSdySharding = "sdy.sharding";
constexpr StringLiteral kTrellisSharding = "trellis.sharding";
constexpr StringLiteral kTrellisName = "trellis.name";

bool isImportDialect(Operation *op) {
  return isa_and_nonnull<hlo::HloDialect, chlo::ChloDialect, sdy::SdyDialect>(
      op->getDialect());
}

/// Element types the rest of Trellis computes with.
bool isSupportedElement(Type type) {
  if (type.isBF16() || type.isF16() || type.isF32() || type.isF64())
    return true;
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.isSignless() &&
         llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth());
}

/// Checks that `op`'s operands and results are static tensors of supported
/// element types.
LogicalResult checkTypes(Operation *op) {
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

Value emptyOf(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

/// The scalar in a 0-d tensor: a scalar constant when the tensor is a
/// constant (so a zero init is recognisably zero), else a tensor.extract.
Value scalarOf(OpBuilder &b, Location loc, Value tensor) {
  DenseElementsAttr dense;
  if (matchPattern(tensor, m_Constant(&dense)) && dense.isSplat())
    return arith::ConstantOp::create(b, loc, dense.getSplatValue<TypedAttr>());
  return tensor::ExtractOp::create(b, loc, tensor, ValueRange());
}

/// `value` (a 0-d tensor) broadcast to `type`; other values unchanged.
Value broadcastScalar(OpBuilder &b, Location loc, Value value,
                      RankedTensorType type) {
  auto from = cast<RankedTensorType>(value.getType());
  if (from.getRank() != 0 || type.getRank() == 0)
    return value;
  auto init = emptyOf(b, loc, type.clone(from.getElementType()));
  SmallVector<int64_t> dims =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return linalg::BroadcastOp::create(b, loc, value, init, dims)->getResult(0);
}

/// Whether `values` holds each of 0..bound-1 at most once, all in range.
bool areDistinctDims(ArrayRef<int64_t> values, int64_t bound) {
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t v : values)
    if (v < 0 || v >= bound || !seen.insert(v).second)
      return false;
  return true;
}

class Importer {
public:
  explicit Importer(ModuleOp module) : module(module), b(module.getContext()) {}

  LogicalResult run();

private:
  LogicalResult importModuleAttributes();
  LogicalResult importMesh(sdy::MeshOp op);
  FailureOr<ShardingAttr>
  importSharding(Location where, sdy::TensorShardingAttr sharding, Type type);
  LogicalResult importSignature(func::FuncOp func);
  LogicalResult importOp(Operation *op);
  LogicalResult importResultShardings(Operation *op,
                                      MutableArrayRef<Value> results);

  FailureOr<Value> importElementwise(Operation *op);
  FailureOr<Value> importConstant(hlo::ConstantOp op);
  FailureOr<Value> importIota(hlo::IotaOp op);
  FailureOr<Value> importBroadcastInDim(hlo::BroadcastInDimOp op);
  FailureOr<Value> importReshape(hlo::ReshapeOp op);
  FailureOr<Value> importTranspose(hlo::TransposeOp op);
  FailureOr<Value> importReverse(hlo::ReverseOp op);
  FailureOr<Value> importSlice(hlo::SliceOp op);
  FailureOr<Value> importConcatenate(hlo::ConcatenateOp op);
  FailureOr<Value> importPad(hlo::PadOp op);
  FailureOr<Value> importDotGeneral(hlo::DotGeneralOp op);
  FailureOr<SmallVector<Value>> importReduce(hlo::ReduceOp op);
  FailureOr<Value> importConstraint(Operation *op, Value input,
                                    sdy::TensorShardingAttr sharding);
  FailureOr<SmallVector<Value>>
  importManualComputation(sdy::ManualComputationOp op);
  FailureOr<SmallVector<Value>> importCollective(Operation *op);

  ModuleOp module;
  OpBuilder b;
  /// Mesh sizes by name, for checking shardings.
  llvm::StringMap<int64_t> meshDevices;
};

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
    } else if (name == "mhlo.frontend_attributes") {
      auto dict = dyn_cast<DictionaryAttr>(attr.getValue());
      for (NamedAttribute entry :
           dict ? dict.getValue() : ArrayRef<NamedAttribute>())
        if (entry.getName().getValue().starts_with("xla.sdy."))
          return module.emitError("Shardy round-trip attribute '")
                 << entry.getName().getValue()
                 << "' is not supported yet: print the module with Shardy "
                    "enabled (sdy.mesh and #sdy.sharding)";
    } else if (!name.starts_with("mhlo.") && !name.starts_with("jax.")) {
      continue;
    }
    drop.push_back(attr.getName());
  }
  std::optional<int64_t> partitions;
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
    if (failed(
            DimShardingAttr::verify(emitError, dim.getAxes(), dim.getClosed())))
      return failure();
    dims.push_back(
        DimShardingAttr::get(b.getContext(), dim.getAxes(), dim.getClosed()));
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
  // Names the axes, and checks divisibility, where the user wrote them.
  std::optional<ArrayRef<int64_t>> shape;
  if (tensor)
    shape = tensor.getShape();
  if (failed(verifyShardingForShape(result, shape, mesh, emitError)))
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
        if (!text ||
            (!text.getValue().empty() && text.getValue() != "{replicated}"))
          return mlir::emitError(loc, "GSPMD sharding ")
                 << attr.getValue() << " is not supported yet";
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

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

FailureOr<Value> Importer::importElementwise(Operation *op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<Value> operands;
  // Scalar predicates (select) and bounds (clamp) apply to every element.
  for (Value operand : op->getOperands())
    operands.push_back(broadcastScalar(
        b, op->getLoc(), operand,
        cast<RankedTensorType>(operand.getType()).clone(type.getShape())));
  for (Value operand : operands)
    if (cast<RankedTensorType>(operand.getType()).getShape() != type.getShape())
      return op->emitError("operand shapes must match the result shape ")
             << type;
  return emitElementwise(b, op, operands, type);
}

FailureOr<Value> Importer::importConstant(hlo::ConstantOp op) {
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense)
    return op.emitError("only dense<...> constants are supported, got ")
           << op.getValue();
  return arith::ConstantOp::create(b, op.getLoc(), dense).getResult();
}

FailureOr<Value> Importer::importIota(hlo::IotaOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  int64_t dim = op.getIotaDimension();
  if (dim < 0 || dim >= type.getRank())
    return op.emitError("iota dimension ")
           << dim << " is out of range for " << type;
  Location loc = op.getLoc();
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  Type element = type.getElementType();
  auto generic = linalg::GenericOp::create(
      b, loc, type, ValueRange(), ValueRange{emptyOf(b, loc, type)},
      ArrayRef<AffineMap>{identity}, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange) {
        Value index = linalg::IndexOp::create(nb, nloc, dim);
        Value wide =
            arith::IndexCastOp::create(nb, nloc, nb.getI64Type(), index);
        linalg::YieldOp::create(nb, nloc,
                                convertElements(nb, nloc, wide, element));
      });
  return generic->getResult(0);
}

FailureOr<Value> Importer::importBroadcastInDim(hlo::BroadcastInDimOp op) {
  auto from = cast<RankedTensorType>(op.getOperand().getType());
  auto to = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> dims = op.getBroadcastDimensions();
  if (static_cast<int64_t>(dims.size()) != from.getRank() ||
      !areDistinctDims(dims, to.getRank()))
    return op.emitError("broadcast dimensions [")
           << dims << "] must map each of the " << from.getRank()
           << " operand dimensions to a distinct result dimension of " << to;
  if (from.getElementType() != to.getElementType())
    return op.emitError("broadcast_in_dim changes the element type");
  SmallVector<AffineExpr> exprs;
  for (auto [i, dim] : llvm::enumerate(dims)) {
    int64_t size = from.getDimSize(i), target = to.getDimSize(dim);
    if (size == target)
      exprs.push_back(b.getAffineDimExpr(dim));
    else if (size == 1)
      exprs.push_back(b.getAffineConstantExpr(0));
    else
      return op.emitError("operand dimension ")
             << i << " of size " << size << " cannot broadcast to size "
             << target << " (result dimension " << dim << ")";
  }
  if (from == to && llvm::equal(dims, llvm::seq<int64_t>(0, to.getRank())))
    return op.getOperand();
  Location loc = op.getLoc();
  AffineMap input = AffineMap::get(to.getRank(), 0, exprs, b.getContext());
  SmallVector<utils::IteratorType> iterators(to.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, to, ValueRange{op.getOperand()}, ValueRange{emptyOf(b, loc, to)},
      ArrayRef<AffineMap>{input, b.getMultiDimIdentityMap(to.getRank())},
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, args[0]);
      });
  return generic->getResult(0);
}

FailureOr<Value> Importer::importReshape(hlo::ReshapeOp op) {
  auto from = cast<RankedTensorType>(op.getOperand().getType());
  auto to = cast<RankedTensorType>(op.getType());
  if (from.getNumElements() != to.getNumElements() ||
      from.getElementType() != to.getElementType())
    return op.emitError("reshape from ")
           << from << " to " << to << " changes the number of elements";
  Location loc = op.getLoc();
  Value source = op.getOperand();
  if (from == to)
    return source;
  auto collapse = [&](Value value, RankedTensorType into) -> Value {
    auto type = cast<RankedTensorType>(value.getType());
    std::optional<SmallVector<ReassociationIndices>> map =
        getReassociationIndicesForCollapse(type.getShape(), into.getShape());
    if (!map)
      return {};
    return tensor::CollapseShapeOp::create(b, loc, into, value, *map);
  };
  auto expand = [&](Value value, RankedTensorType into) -> Value {
    auto type = cast<RankedTensorType>(value.getType());
    std::optional<SmallVector<ReassociationIndices>> map =
        getReassociationIndicesForCollapse(into.getShape(), type.getShape());
    if (!map)
      return {};
    return tensor::ExpandShapeOp::create(b, loc, into, value, *map);
  };
  if (from.getRank() > to.getRank())
    if (Value v = collapse(source, to))
      return v;
  if (from.getRank() < to.getRank())
    if (Value v = expand(source, to))
      return v;
  // No single collapse or expand: through the flat vector.
  auto flat =
      RankedTensorType::get({from.getNumElements()}, from.getElementType());
  Value v = from.getRank() == 1 ? source : collapse(source, flat);
  if (v && to.getRank() != 1)
    v = expand(v, to);
  if (!v)
    return op.emitError("cannot express reshape from ") << from << " to " << to;
  return v;
}

FailureOr<Value> Importer::importTranspose(hlo::TransposeOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto from = cast<RankedTensorType>(op.getOperand().getType());
  ArrayRef<int64_t> perm = op.getPermutation();
  if (static_cast<int64_t>(perm.size()) != from.getRank() ||
      !areDistinctDims(perm, from.getRank()))
    return op.emitError("transpose dims [")
           << perm << "] are not a permutation of the " << from.getRank()
           << " dimensions";
  for (auto [i, p] : llvm::enumerate(perm))
    if (type.getDimSize(i) != from.getDimSize(p))
      return op.emitError("result type ")
             << type << " does not match the transpose of " << from;
  Location loc = op.getLoc();
  return linalg::TransposeOp::create(b, loc, op.getOperand(),
                                     emptyOf(b, loc, type), perm)
      ->getResult(0);
}

FailureOr<Value> Importer::importReverse(hlo::ReverseOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> dims = op.getDimensions();
  if (!areDistinctDims(dims, type.getRank()))
    return op.emitError("reverse dims [")
           << dims << "] must be distinct dimensions of " << type;
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < type.getRank(); ++d)
    exprs.push_back(llvm::is_contained(dims, d)
                        ? type.getDimSize(d) - 1 - b.getAffineDimExpr(d)
                        : b.getAffineDimExpr(d));
  Location loc = op.getLoc();
  AffineMap input = AffineMap::get(type.getRank(), 0, exprs, b.getContext());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, type, ValueRange{op.getOperand()},
      ValueRange{emptyOf(b, loc, type)},
      ArrayRef<AffineMap>{input, b.getMultiDimIdentityMap(type.getRank())},
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, args[0]);
      });
  return generic->getResult(0);
}

FailureOr<Value> Importer::importSlice(hlo::SliceOp op) {
  auto from = cast<RankedTensorType>(op.getOperand().getType());
  auto type = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> start = op.getStartIndices(), limit = op.getLimitIndices(),
                    stride = op.getStrides();
  int64_t rank = from.getRank();
  if (static_cast<int64_t>(start.size()) != rank ||
      static_cast<int64_t>(limit.size()) != rank ||
      static_cast<int64_t>(stride.size()) != rank)
    return op.emitError("slice needs one start, limit and stride per "
                        "dimension of ")
           << from;
  SmallVector<int64_t> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (start[d] < 0 || start[d] > limit[d] || limit[d] > from.getDimSize(d) ||
        stride[d] < 1)
      return op.emitError("slice [")
             << start[d] << ":" << limit[d] << ":" << stride[d]
             << "] is out of range for dimension " << d << " of " << from;
    sizes.push_back((limit[d] - start[d] + stride[d] - 1) / stride[d]);
  }
  if (ArrayRef<int64_t>(sizes) != type.getShape())
    return op.emitError("result type ")
           << type << " does not match the slice's shape";
  return tensor::ExtractSliceOp::create(b, op.getLoc(), type, op.getOperand(),
                                        ValueRange(), ValueRange(),
                                        ValueRange(), start, sizes, stride)
      .getResult();
}

FailureOr<Value> Importer::importConcatenate(hlo::ConcatenateOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  int64_t dim = op.getDimension();
  if (dim < 0 || dim >= type.getRank())
    return op.emitError("concatenate dimension ")
           << dim << " is out of range for " << type;
  if (op.getInputs().size() == 1)
    return op.getInputs()[0];
  return tensor::ConcatOp::create(b, op.getLoc(), type, dim, op.getInputs())
      .getResult();
}

FailureOr<Value> Importer::importPad(hlo::PadOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> low = op.getEdgePaddingLow(),
                    high = op.getEdgePaddingHigh(),
                    interior = op.getInteriorPadding();
  int64_t rank = type.getRank();
  if (static_cast<int64_t>(low.size()) != rank ||
      static_cast<int64_t>(high.size()) != rank ||
      static_cast<int64_t>(interior.size()) != rank)
    return op.emitError("pad needs one low, high and interior padding per "
                        "dimension");
  if (llvm::any_of(interior, [](int64_t v) { return v != 0; }))
    return op.emitError("interior padding is not supported yet");
  if (llvm::any_of(llvm::concat<const int64_t>(low, high),
                   [](int64_t v) { return v < 0; }))
    return op.emitError("negative padding is not supported yet");
  Location loc = op.getLoc();
  Value padValue = scalarOf(b, loc, op.getPaddingValue());
  SmallVector<OpFoldResult> lows, highs;
  for (int64_t d = 0; d < rank; ++d) {
    lows.push_back(b.getIndexAttr(low[d]));
    highs.push_back(b.getIndexAttr(high[d]));
  }
  return tensor::PadOp::create(b, loc, type, op.getOperand(), lows, highs,
                               padValue)
      .getResult();
}

FailureOr<Value> Importer::importDotGeneral(hlo::DotGeneralOp op) {
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
  auto type = cast<RankedTensorType>(op.getType());
  hlo::DotDimensionNumbersAttr numbers = op.getDotDimensionNumbers();
  ArrayRef<int64_t> lb = numbers.getLhsBatchingDimensions(),
                    rb = numbers.getRhsBatchingDimensions(),
                    lc = numbers.getLhsContractingDimensions(),
                    rc = numbers.getRhsContractingDimensions();
  if (lb.size() != rb.size() || lc.size() != rc.size())
    return op.emitError("lhs and rhs need as many batching (")
           << lb.size() << " vs " << rb.size() << ") and contracting ("
           << lc.size() << " vs " << rc.size() << ") dimensions";
  SmallVector<int64_t> lhsUsed(lb), rhsUsed(rb);
  llvm::append_range(lhsUsed, lc);
  llvm::append_range(rhsUsed, rc);
  if (!areDistinctDims(lhsUsed, lhsType.getRank()) ||
      !areDistinctDims(rhsUsed, rhsType.getRank()))
    return op.emitError("batching and contracting dimensions must be "
                        "distinct dimensions of the operands");
  for (auto [l, r] : llvm::zip(lhsUsed, rhsUsed))
    if (lhsType.getDimSize(l) != rhsType.getDimSize(r))
      return op.emitError("lhs dimension ")
             << l << " (size " << lhsType.getDimSize(l)
             << ") and rhs dimension " << r << " (size "
             << rhsType.getDimSize(r) << ") are paired but differ in size";
  Type element = type.getElementType();
  if (element.isInteger(1) || lhsType.getElementType().isInteger(1))
    return op.emitError("dot_general of booleans is not supported");
  if (isa<FloatType>(element) != isa<FloatType>(lhsType.getElementType()) ||
      lhsType.getElementType() != rhsType.getElementType())
    return op.emitError("dot_general of ")
           << lhsType.getElementType() << " and " << rhsType.getElementType()
           << " into " << element << " is not supported";

  // Loops: batch, lhs free, rhs free, contracting.
  int64_t nb = lb.size(), nc = lc.size();
  SmallVector<int64_t> lhsFree, rhsFree, shape;
  for (int64_t d = 0; d < lhsType.getRank(); ++d)
    if (!llvm::is_contained(lhsUsed, d))
      lhsFree.push_back(d);
  for (int64_t d = 0; d < rhsType.getRank(); ++d)
    if (!llvm::is_contained(rhsUsed, d))
      rhsFree.push_back(d);
  for (int64_t d : lb)
    shape.push_back(lhsType.getDimSize(d));
  for (int64_t d : lhsFree)
    shape.push_back(lhsType.getDimSize(d));
  for (int64_t d : rhsFree)
    shape.push_back(rhsType.getDimSize(d));
  if (ArrayRef<int64_t>(shape) != type.getShape())
    return op.emitError("result type ")
           << type << " does not match the dot_general's shape [" << shape
           << "] (batch, lhs free, rhs free dimensions)";
  int64_t nl = lhsFree.size(), nr = rhsFree.size();
  int64_t loops = nb + nl + nr + nc;
  auto operandMap = [&](int64_t rank, ArrayRef<int64_t> batch,
                        ArrayRef<int64_t> contract, ArrayRef<int64_t> free,
                        int64_t freeBase) {
    SmallVector<AffineExpr> exprs(rank);
    for (auto [i, d] : llvm::enumerate(batch))
      exprs[d] = b.getAffineDimExpr(i);
    for (auto [i, d] : llvm::enumerate(free))
      exprs[d] = b.getAffineDimExpr(freeBase + i);
    for (auto [i, d] : llvm::enumerate(contract))
      exprs[d] = b.getAffineDimExpr(nb + nl + nr + i);
    return AffineMap::get(loops, 0, exprs, b.getContext());
  };
  SmallVector<AffineExpr> outExprs;
  for (int64_t i = 0; i < nb + nl + nr; ++i)
    outExprs.push_back(b.getAffineDimExpr(i));
  SmallVector<AffineMap> maps = {
      operandMap(lhsType.getRank(), lb, lc, lhsFree, nb),
      operandMap(rhsType.getRank(), rb, rc, rhsFree, nb + nl),
      AffineMap::get(loops, 0, outExprs, b.getContext())};
  SmallVector<utils::IteratorType> iterators(nb + nl + nr,
                                             utils::IteratorType::parallel);
  iterators.append(nc, utils::IteratorType::reduction);

  Location loc = op.getLoc();
  Value zero = constantOf(b, loc, element, 0);
  Value init =
      linalg::FillOp::create(b, loc, zero, emptyOf(b, loc, type)).getResult(0);
  bool isFloat = isa<FloatType>(element);
  auto generic = linalg::GenericOp::create(
      b, loc, type, ValueRange{op.getLhs(), op.getRhs()}, ValueRange{init},
      maps, iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        // Products and sums in the result type: bf16 x bf16 -> f32
        // accumulates in f32, as StableHLO specifies.
        Value x = convertElements(nb, nloc, args[0], element);
        Value y = convertElements(nb, nloc, args[1], element);
        Value sum;
        if (isFloat)
          sum = arith::AddFOp::create(nb, nloc, args[2],
                                      arith::MulFOp::create(nb, nloc, x, y));
        else
          sum = arith::AddIOp::create(nb, nloc, args[2],
                                      arith::MulIOp::create(nb, nloc, x, y));
        linalg::YieldOp::create(nb, nloc, sum);
      });
  return generic->getResult(0);
}

FailureOr<SmallVector<Value>> Importer::importReduce(hlo::ReduceOp op) {
  size_t n = op.getInputs().size();
  auto inputType = cast<RankedTensorType>(op.getInputs()[0].getType());
  int64_t rank = inputType.getRank();
  ArrayRef<int64_t> dims = op.getDimensions();
  if (!areDistinctDims(dims, rank))
    return op.emitError("reduce dimensions [")
           << dims << "] must be distinct dimensions of " << inputType;
  SmallVector<int64_t> kept;
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, d)) {
      kept.push_back(inputType.getDimSize(d));
      outExprs.push_back(b.getAffineDimExpr(d));
    }
  for (size_t i = 0; i < n; ++i) {
    auto in = cast<RankedTensorType>(op.getInputs()[i].getType());
    auto init = cast<RankedTensorType>(op.getInitValues()[i].getType());
    auto result = cast<RankedTensorType>(op->getResult(i).getType());
    if (in.getShape() != inputType.getShape() || init.getRank() != 0 ||
        init.getElementType() != in.getElementType() ||
        result.getElementType() != in.getElementType() ||
        result.getShape() != ArrayRef<int64_t>(kept))
      return op.emitError("reduce operand ")
             << i << " (" << in << ", init " << init << ", result " << result
             << ") does not fit: operands share a shape, inits are 0-d of "
                "the same element type, results drop the reduced dimensions";
  }

  Location loc = op.getLoc();
  SmallVector<Value> inits;
  SmallVector<Type> resultTypes;
  for (size_t i = 0; i < n; ++i) {
    auto type = cast<RankedTensorType>(op->getResult(i).getType());
    Value scalar = scalarOf(b, loc, op.getInitValues()[i]);
    inits.push_back(
        linalg::FillOp::create(b, loc, scalar, emptyOf(b, loc, type))
            .getResult(0));
    resultTypes.push_back(type);
  }
  SmallVector<AffineMap> maps(n, b.getMultiDimIdentityMap(rank));
  maps.append(n, AffineMap::get(rank, 0, outExprs, b.getContext()));
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d)
    iterators.push_back(llvm::is_contained(dims, d)
                            ? utils::IteratorType::reduction
                            : utils::IteratorType::parallel);

  // The reducer's block takes (accumulators..., elements...); the generic's
  // body takes (elements..., accumulators...).
  Block &reducer = op.getBody().front();
  bool bodyFailed = false;
  auto generic = linalg::GenericOp::create(
      b, loc, resultTypes, op.getInputs(), inits, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        IRMapping scalars;
        for (size_t i = 0; i < n; ++i) {
          scalars.map(reducer.getArgument(i), args[n + i]);
          scalars.map(reducer.getArgument(n + i), args[i]);
        }
        SmallVector<Value> yielded;
        for (Operation &inner : reducer) {
          if (auto ret = dyn_cast<hlo::ReturnOp>(inner)) {
            for (Value v : ret.getResults())
              yielded.push_back(scalars.lookup(v));
            continue;
          }
          FailureOr<Value> value = failure();
          if (auto constant = dyn_cast<hlo::ConstantOp>(inner)) {
            auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
            if (dense && dense.isSplat())
              value = arith::ConstantOp::create(
                          nb, inner.getLoc(), dense.getSplatValue<TypedAttr>())
                          .getResult();
            else
              inner.emitError("reducer constants must be scalars");
          } else if (isImportElementwise(&inner)) {
            SmallVector<Value> operands;
            for (Value v : inner.getOperands())
              operands.push_back(scalars.lookup(v));
            value = emitElementwise(
                nb, &inner, operands,
                getElementTypeOrSelf(inner.getResult(0).getType()));
          } else {
            inner.emitError("'")
                << inner.getName()
                << "' is not supported in a reducer (elementwise ops, "
                   "compare, select and constants are)";
          }
          if (failed(value)) {
            bodyFailed = true;
            break;
          }
          scalars.map(inner.getResult(0), *value);
        }
        if (bodyFailed || yielded.size() != n) {
          // Keep the op well-formed until it is erased.
          yielded.assign(args.begin() + n, args.end());
          if (!bodyFailed)
            op.emitError("reducer returns the wrong number of values");
          bodyFailed = true;
        }
        linalg::YieldOp::create(nb, nloc, yielded);
      });
  if (bodyFailed) {
    generic->erase();
    return failure();
  }
  return SmallVector<Value>(generic->getResults());
}

//===----------------------------------------------------------------------===//
// Manual computations and their collectives
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Value>>
Importer::importManualComputation(sdy::ManualComputationOp op) {
  ArrayRef<sdy::TensorShardingAttr> ins = op.getInShardings().getShardings();
  ArrayRef<sdy::TensorShardingAttr> outs = op.getOutShardings().getShardings();
  if (ins.size() != op.getTensors().size() ||
      outs.size() != op->getNumResults())
    return op.emitError("needs one in_sharding per operand and one "
                        "out_sharding per result");
  FlatSymbolRefAttr meshName;
  for (sdy::TensorShardingAttr sharding :
       llvm::concat<const sdy::TensorShardingAttr>(ins, outs)) {
    if (meshName && sharding.getMesh() != meshName)
      return op.emitError("in_shardings and out_shardings name meshes ")
             << meshName << " and " << sharding.getMesh();
    meshName = sharding.getMesh();
  }
  if (!meshName)
    return op.emitError("a manual computation without operands or results "
                        "names no mesh");
  auto mesh = SymbolTable::lookupNearestSymbolFrom<MeshOp>(module, meshName);
  if (!mesh)
    return op.emitError("unknown mesh ") << meshName;
  ArrayRef<StringAttr> manual = op.getManualAxes().getAxes();
  for (StringAttr axis : manual)
    if (!mesh.getAxisIndex(axis.getValue()))
      return op.emitError("manual axis \"")
             << axis.getValue() << "\" is not an axis of " << meshName;
  auto toSpec = [&](sdy::TensorShardingAttr sharding) -> FailureOr<Attribute> {
    if (!sharding.getReplicated().empty() || !sharding.getUnreduced().empty())
      return op.emitError("replicated or unreduced axes in a manual "
                          "computation's shardings are not supported yet");
    SmallVector<DimShardingAttr> dims;
    for (sdy::DimShardingAttr dim : sharding.getDims()) {
      for (StringAttr axis : dim.getAxes())
        if (!llvm::is_contained(manual, axis))
          return op.emitError("sharding over non-manual axis \"")
                 << axis.getValue()
                 << "\" in a manual computation is not supported yet";
      dims.push_back(DimShardingAttr::get(b.getContext(), dim.getAxes()));
    }
    return Attribute(SpecAttr::get(b.getContext(), dims));
  };
  SmallVector<Attribute> inSpecs, outSpecs;
  for (sdy::TensorShardingAttr sharding : ins) {
    FailureOr<Attribute> spec = toSpec(sharding);
    if (failed(spec))
      return failure();
    inSpecs.push_back(*spec);
  }
  for (sdy::TensorShardingAttr sharding : outs) {
    FailureOr<Attribute> spec = toSpec(sharding);
    if (failed(spec))
      return failure();
    outSpecs.push_back(*spec);
  }
  ArrayAttr manualAxes;
  if (manual.size() != mesh.getNumAxes()) {
    SmallVector<Attribute> names;
    for (Attribute name : mesh.getAxisNames())
      if (llvm::is_contained(manual, cast<StringAttr>(name)))
        names.push_back(name);
    manualAxes = b.getArrayAttr(names);
  }
  // JAX checked the body's replication; Trellis checks it again, so an
  // unmapped out_sharding on a varying value is an error, not one device's
  // block.
  auto map = spmd::ShardMapOp::create(b, op.getLoc(), op->getResultTypes(),
                                      meshName, b.getArrayAttr(inSpecs),
                                      b.getArrayAttr(outSpecs), manualAxes,
                                      b.getBoolAttr(true), op.getTensors());
  map.getBody().takeBody(op.getBody());
  Block &body = map.getBodyBlock();
  auto ret = cast<sdy::ReturnOp>(body.getTerminator());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ret);
  spmd::YieldOp::create(b, ret.getLoc(), ret.getResults());
  ret.erase();
  return SmallVector<Value>(map->getResults());
}

/// The reduction a collective's region applies: one add, max or min of the
/// two arguments.
static FailureOr<StringRef> regionReduction(Operation *op, Region &region) {
  Block &block = region.front();
  auto fail = [&]() {
    return op->emitError("the reduction must be one stablehlo.add, "
                         "maximum or minimum of the two arguments");
  };
  if (block.getNumArguments() != 2 || !llvm::hasNItems(block, 2))
    return fail();
  Operation &combine = block.front();
  auto ret = dyn_cast<hlo::ReturnOp>(block.back());
  if (!ret || ret->getNumOperands() != 1 ||
      ret->getOperand(0).getDefiningOp() != &combine ||
      combine.getNumOperands() != 2 ||
      !llvm::is_contained(combine.getOperands(), block.getArgument(0)) ||
      !llvm::is_contained(combine.getOperands(), block.getArgument(1)))
    return fail();
  if (isa<hlo::AddOp>(combine))
    return StringRef("sum");
  if (isa<hlo::MaximumOp>(combine))
    return StringRef("max");
  if (isa<hlo::MinimumOp>(combine))
    return StringRef("min");
  return fail();
}

FailureOr<SmallVector<Value>> Importer::importCollective(Operation *op) {
  auto map = op->getParentOfType<spmd::ShardMapOp>();
  if (!map)
    return op->emitError("'")
           << op->getName()
           << "' outside an sdy.manual_computation is not supported";
  MeshOp mesh = map.getMeshOp();
  SmallVector<StringAttr> manual = map.getAllManualAxes();
  Location loc = op->getLoc();
  auto axesAttr = [&](ArrayRef<StringAttr> axes) {
    return b.getArrayAttr(SmallVector<Attribute>(axes.begin(), axes.end()));
  };
  auto groupsOf = [&](Attribute attr) -> FailureOr<SmallVector<StringAttr>> {
    return decodeReplicaGroups(op, mesh, manual,
                               cast<DenseIntElementsAttr>(attr));
  };
  SmallVector<Value> results;
  if (auto allReduce = dyn_cast<hlo::AllReduceOp>(op)) {
    FailureOr<StringRef> kind = regionReduction(op, allReduce.getComputation());
    if (failed(kind))
      return failure();
    FailureOr<SmallVector<StringAttr>> axes =
        groupsOf(allReduce.getReplicaGroups());
    if (failed(axes))
      return failure();
    for (Value operand : allReduce.getOperands()) {
      ArrayAttr over = axesAttr(*axes);
      Type type = operand.getType();
      if (axes->empty())
        results.push_back(operand);
      else if (*kind == "sum")
        results.push_back(spmd::PsumOp::create(b, loc, type, operand, over));
      else if (*kind == "max")
        results.push_back(spmd::PmaxOp::create(b, loc, type, operand, over));
      else
        results.push_back(spmd::PminOp::create(b, loc, type, operand, over));
    }
    return results;
  }
  if (auto gather = dyn_cast<hlo::AllGatherOp>(op)) {
    FailureOr<SmallVector<StringAttr>> axes =
        groupsOf(gather.getReplicaGroups());
    if (failed(axes))
      return failure();
    for (auto [operand, result] :
         llvm::zip(gather.getOperands(), op->getResults())) {
      if (axes->empty()) {
        results.push_back(operand);
        continue;
      }
      results.push_back(spmd::AllGatherOp::create(
          b, loc, result.getType(), operand, axesAttr(*axes),
          gather.getAllGatherDimAttr(), b.getUnitAttr()));
    }
    return results;
  }
  if (auto scatter = dyn_cast<hlo::ReduceScatterOp>(op)) {
    FailureOr<StringRef> kind = regionReduction(op, scatter.getComputation());
    if (failed(kind))
      return failure();
    if (*kind != "sum")
      return op->emitError("only sum reduce_scatters are supported");
    FailureOr<SmallVector<StringAttr>> axes =
        groupsOf(scatter.getReplicaGroups());
    if (failed(axes))
      return failure();
    if (axes->empty())
      return SmallVector<Value>{scatter.getOperand()};
    results.push_back(spmd::PsumScatterOp::create(
        b, loc, op->getResult(0).getType(), scatter.getOperand(),
        axesAttr(*axes), scatter.getScatterDimensionAttr(), b.getUnitAttr()));
    return results;
  }
  if (auto allToAll = dyn_cast<hlo::AllToAllOp>(op)) {
    FailureOr<SmallVector<StringAttr>> axes =
        groupsOf(allToAll.getReplicaGroups());
    if (failed(axes))
      return failure();
    if (mesh.getAxesSize(*axes) != allToAll.getSplitCount())
      return op->emitError("split_count ")
             << allToAll.getSplitCount() << " differs from the group size "
             << mesh.getAxesSize(*axes);
    for (auto [operand, result] :
         llvm::zip(allToAll.getOperands(), op->getResults())) {
      if (axes->empty()) {
        results.push_back(operand);
        continue;
      }
      results.push_back(spmd::AllToAllOp::create(
          b, loc, result.getType(), operand, axesAttr(*axes),
          allToAll.getSplitDimensionAttr(), allToAll.getConcatDimensionAttr()));
    }
    return results;
  }
  auto permute = cast<hlo::CollectivePermuteOp>(op);
  auto decoded = decodeSourceTargetPairs(
      op, mesh, manual,
      cast<DenseIntElementsAttr>(permute.getSourceTargetPairs()));
  if (failed(decoded))
    return failure();
  results.push_back(spmd::PpermuteOp::create(
      b, loc, permute.getType(), permute.getOperand(), axesAttr(decoded->first),
      b.getDenseI64ArrayAttr(decoded->second)));
  return results;
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
          .Case([&](sdy::ManualComputationOp o) {
            return importManualComputation(o);
          })
          .Case<hlo::AllReduceOp, hlo::AllGatherOp, hlo::ReduceScatterOp,
                hlo::AllToAllOp, hlo::CollectivePermuteOp>(
              [&](Operation *o) { return importCollective(o); })
          .Case([&](hlo::OptimizationBarrierOp o) -> FailureOr<Values> {
            // A scheduling hint for XLA; Trellis schedules its own way.
            return Values(o.getOperand());
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

LogicalResult Importer::run() {
  if (failed(importModuleAttributes()))
    return failure();
  for (auto func : module.getOps<func::FuncOp>())
    if (failed(importSignature(func)))
      return failure();
  // Program order; reducer bodies are read by their reduce, not imported.
  SmallVector<Operation *> worklist;
  // Terminators go with their parents; reducers are read by their op.
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isImportDialect(op) && !isa<hlo::ReturnOp, sdy::ReturnOp>(op))
      worklist.push_back(op);
    return isa<hlo::ReduceOp, hlo::AllReduceOp, hlo::ReduceScatterOp>(op)
               ? WalkResult::skip()
               : WalkResult::advance();
  });
  for (Operation *op : worklist)
    if (failed(importOp(op)))
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

struct TrellisImportStableHLOPass
    : public mlir::trellis::impl::TrellisImportStableHLOBase<
          TrellisImportStableHLOPass> {
  void runOnOperation() override {
    if (failed(Importer(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace
