//===- ShardingUtils.cpp - Helpers on meshes and shardings ----------------===//

#include "dialects/trellis/IR/ShardingUtils.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::trellis;

MeshOp mlir::trellis::lookupMesh(Operation *from, FlatSymbolRefAttr meshRef) {
  if (!meshRef)
    return {};
  return SymbolTable::lookupNearestSymbolFrom<MeshOp>(from, meshRef);
}

ShardingAttr mlir::trellis::getShardingEncoding(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return dyn_cast_or_null<ShardingAttr>(tensor.getEncoding());
  return {};
}

RankedTensorType mlir::trellis::withSharding(RankedTensorType type,
                                             ShardingAttr sharding) {
  bool trivial = !sharding || (sharding.getAllAxes().empty() &&
                               sharding.getReplicated().empty() &&
                               sharding.getUnreduced().empty());
  return RankedTensorType::get(type.getShape(), type.getElementType(),
                               trivial ? Attribute() : Attribute(sharding));
}

ShardingAttr mlir::trellis::dropAxes(ShardingAttr sharding,
                                     ArrayRef<StringAttr> axes) {
  if (!sharding)
    return sharding;
  auto keep = [&](ArrayRef<StringAttr> in) {
    SmallVector<StringAttr> out;
    for (StringAttr axis : in)
      if (!llvm::is_contained(axes, axis))
        out.push_back(axis);
    return out;
  };
  SmallVector<DimShardingAttr> dims;
  for (DimShardingAttr dim : sharding.getDims())
    dims.push_back(DimShardingAttr::get(sharding.getContext(),
                                        keep(dim.getAxes()), dim.getClosed()));
  return ShardingAttr::get(sharding.getContext(), sharding.getMesh(), dims,
                           keep(sharding.getReplicated()),
                           keep(sharding.getUnreduced()));
}

Type mlir::trellis::dropAxesFromType(Type type, ArrayRef<StringAttr> axes) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  ShardingAttr sharding = getShardingEncoding(type);
  if (!tensor || !sharding)
    return type;
  return withSharding(tensor, dropAxes(sharding, axes));
}

LogicalResult
mlir::trellis::verifyAxesExist(ArrayRef<StringAttr> axes, MeshOp mesh,
                               function_ref<InFlightDiagnostic()> emitError) {
  for (StringAttr axis : axes) {
    if (mesh.resolveAxis(axis.getValue()))
      continue;
    std::optional<SubAxisName> sub = parseSubAxisName(axis.getValue());
    if (sub && mesh.getAxisIndex(sub->axis))
      return emitError() << "sub-axis \"" << sub->axis << "\":(" << sub->preSize
                         << ")" << sub->size
                         << " is not a proper part of mesh axis \"" << sub->axis
                         << "\" of size " << mesh.getAxisSize(sub->axis)
                         << ": its size must be at least 2 and its pre-size "
                            "times its size must divide the axis's size "
                            "without being all of it";
    return emitError() << "unknown mesh axis \"" << axis.getValue()
                       << "\" (mesh @" << mesh.getSymName() << " has axes "
                       << mesh.getAxisNames() << ")";
  }
  return success();
}

LogicalResult mlir::trellis::verifyShardingForShape(
    ShardingAttr sharding, std::optional<ArrayRef<int64_t>> shape, MeshOp mesh,
    function_ref<InFlightDiagnostic()> emitError, bool allowUneven) {
  SmallVector<StringAttr> all = sharding.getAllAxes();
  llvm::append_range(all, sharding.getReplicated());
  llvm::append_range(all, sharding.getUnreduced());
  if (failed(verifyAxesExist(all, mesh, emitError)))
    return failure();
  for (auto [i, a] : llvm::enumerate(all))
    for (StringAttr b : ArrayRef<StringAttr>(all).drop_front(i + 1))
      if (a != b && mesh.axesOverlap(a.getValue(), b.getValue()))
        return emitError() << "mesh axes " << quoteAxisName(a.getValue())
                           << " and " << quoteAxisName(b.getValue())
                           << " overlap (they are parts of one mesh axis "
                              "sharing devices)";
  if (!shape || allowUneven)
    return success();
  for (auto [dim, dimSharding] : llvm::enumerate(sharding.getDims())) {
    if (dim >= shape->size())
      break;
    int64_t size = (*shape)[dim];
    int64_t parts = mesh.getAxesSize(dimSharding.getAxes());
    if (ShapedType::isDynamic(size) || size % parts == 0)
      continue;
    InFlightDiagnostic diag = emitError();
    diag << "dimension " << dim << " of size " << size
         << " is not divisible by the size " << parts << " of mesh axes {";
    llvm::interleaveComma(dimSharding.getAxes(), diag, [&](StringAttr axis) {
      diag << quoteAxisName(axis.getValue());
    });
    diag << "}";
    return diag;
  }
  return success();
}

/// The type of `axis` for a value whose type is written at `op`: inside
/// `op`'s regions when `inside` (block arguments), else where `op` is.
static AxisType axisTypeFor(Operation *op, bool inside, MeshOp mesh,
                            StringRef axis) {
  if (inside)
    if (auto region = dyn_cast<AxisTypeRegionInterface>(op))
      if (region.getSwitchedMesh().getValue() == mesh.getSymName())
        if (std::optional<AxisType> type = region.getAxisTypeInside(axis))
          return *type;
  return getAxisTypeAt(op, mesh, axis);
}

AxisType mlir::trellis::getAxisTypeOf(Value value, MeshOp mesh,
                                      StringRef axis) {
  if (Operation *def = value.getDefiningOp())
    return axisTypeFor(def, /*inside=*/false, mesh, axis);
  return axisTypeFor(value.getParentBlock()->getParentOp(), /*inside=*/true,
                     mesh, axis);
}

/// Checks one type seen at `op` (result, block argument or signature type).
static LogicalResult verifyTypeEncoding(Operation *op, Type type, bool inside) {
  ShardingAttr sharding = getShardingEncoding(type);
  if (!sharding)
    return success();
  MeshOp mesh = lookupMesh(op, sharding.getMesh());
  if (!mesh)
    return op->emitError() << "type " << type << " names unknown mesh "
                           << sharding.getMesh();
  auto emitError = [&] {
    InFlightDiagnostic diag = op->emitError();
    diag << "invalid sharding in type " << type << ": ";
    return diag;
  };
  if (failed(verifyShardingForShape(
          sharding, cast<RankedTensorType>(type).getShape(), mesh, emitError)))
    return failure();
  // Types show explicit axes only (auto axes belong to the compiler, manual
  // ones to per-device code).
  SmallVector<StringAttr> axes = sharding.getAllAxes();
  llvm::append_range(axes, sharding.getUnreduced());
  for (StringAttr axis : axes) {
    AxisType axisType = axisTypeFor(op, inside, mesh, axis.getValue());
    if (axisType != AxisType::Explicit)
      return emitError() << "mesh axis \"" << axis.getValue() << "\" is "
                         << stringifyAxisType(axisType)
                         << " here, and types may only mention explicit axes";
  }
  return success();
}

LogicalResult mlir::trellis::verifyShardingEncodings(Operation *root) {
  WalkResult result = root->walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (failed(verifyTypeEncoding(op, type, /*inside=*/false)))
        return WalkResult::interrupt();
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      for (Type type : func.getArgumentTypes())
        if (failed(verifyTypeEncoding(op, type, /*inside=*/false)))
          return WalkResult::interrupt();
      for (Type type : func.getResultTypes())
        if (failed(verifyTypeEncoding(op, type, /*inside=*/false)))
          return WalkResult::interrupt();
      return WalkResult::advance();
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Type type : block.getArgumentTypes())
          if (failed(verifyTypeEncoding(op, type, /*inside=*/true)))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

FailureOr<MeshOp> mlir::trellis::findFunctionMesh(FunctionOpInterface func) {
  FlatSymbolRefAttr found;
  bool conflict = false;
  auto note = [&](ShardingAttr sharding) {
    if (!sharding)
      return;
    if (found && found != sharding.getMesh())
      conflict = true;
    found = sharding.getMesh();
  };
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    note(func.getArgAttrOfType<ShardingAttr>(
        i, TrellisDialect::kShardingAttrName));
    note(getShardingEncoding(func.getArgumentTypes()[i]));
  }
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    note(func.getResultAttrOfType<ShardingAttr>(
        i, TrellisDialect::kShardingAttrName));
    note(getShardingEncoding(func.getResultTypes()[i]));
  }
  FlatSymbolRefAttr switched;
  func->walk([&](Operation *op) {
    if (auto constraint = dyn_cast<ShardingConstraintOp>(op))
      note(constraint.getSharding());
    if (Attribute attr = op->getAttr(TrellisDialect::kShardingAttrName)) {
      if (auto sharding = dyn_cast<ShardingAttr>(attr))
        note(sharding);
      else if (auto array = dyn_cast<ArrayAttr>(attr))
        for (Attribute element : array)
          note(dyn_cast<ShardingAttr>(element));
    }
    for (Type type : op->getResultTypes())
      note(getShardingEncoding(type));
    if (auto region = dyn_cast<AxisTypeRegionInterface>(op))
      switched = region.getSwitchedMesh();
  });
  if (conflict)
    return func->emitOpError("uses shardings over more than one mesh");
  if (!found)
    found = switched;
  if (!found)
    return MeshOp();
  MeshOp mesh = lookupMesh(func, found);
  if (!mesh)
    return func->emitOpError("names unknown mesh ") << found;
  return mesh;
}

AxisType mlir::trellis::getAxisTypeAt(Operation *op, MeshOp mesh,
                                      StringRef axis) {
  // A sub-axis has the type of the axis it is part of.
  if (!mesh.getAxisIndex(axis))
    if (std::optional<SubAxisName> sub = parseSubAxisName(axis))
      axis = sub->axis;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    auto region = dyn_cast<AxisTypeRegionInterface>(parent);
    if (!region || region.getSwitchedMesh().getValue() != mesh.getSymName())
      continue;
    if (std::optional<AxisType> type = region.getAxisTypeInside(axis))
      return *type;
  }
  std::optional<unsigned> index = mesh.getAxisIndex(axis);
  return index ? mesh.getAxisType(*index) : AxisType::Auto;
}

std::string mlir::trellis::formatJaxDtype(Type type, bool shortName) {
  if (auto f = dyn_cast<FloatType>(type)) {
    if (type.isBF16())
      return shortName ? "bf16" : "bfloat16";
    std::string width = std::to_string(f.getWidth());
    return (shortName ? "f" : "float") + width;
  }
  if (type.isIndex())
    return shortName ? "i64" : "int64";
  if (auto i = dyn_cast<IntegerType>(type)) {
    if (i.getWidth() == 1)
      return "bool";
    std::string width = std::to_string(i.getWidth());
    if (i.isUnsigned())
      return (shortName ? "u" : "uint") + width;
    return (shortName ? "i" : "int") + width;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

std::string
mlir::trellis::formatJaxType(RankedTensorType type,
                             function_ref<ArrayRef<StringAttr>(int64_t)> axesOf,
                             bool shortName) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << formatJaxDtype(type.getElementType(), shortName) << '[';
  llvm::interleave(
      llvm::seq<int64_t>(0, type.getRank()), os,
      [&](int64_t dim) {
        int64_t size = type.getDimSize(dim);
        if (ShapedType::isDynamic(size))
          os << '?';
        else
          os << size;
        ArrayRef<StringAttr> axes = axesOf(dim);
        if (axes.size() == 1) {
          os << '@' << axes[0].getValue();
        } else if (axes.size() > 1) {
          os << "@(";
          llvm::interleave(
              axes, os, [&](StringAttr axis) { os << axis.getValue(); }, ",");
          os << ')';
        }
      },
      ",");
  os << ']';
  return text;
}

std::string mlir::trellis::formatJaxType(Type type, bool shortName) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return formatJaxDtype(type, shortName) + "[]";
  ShardingAttr sharding = getShardingEncoding(type);
  std::string text = formatJaxType(
      tensor,
      [&](int64_t dim) {
        return sharding ? sharding.getAxes(dim) : ArrayRef<StringAttr>();
      },
      shortName);
  if (sharding && !sharding.getUnreduced().empty())
    text += "{U:" +
            llvm::join(llvm::map_range(
                           sharding.getUnreduced(),
                           [](StringAttr axis) { return axis.getValue(); }),
                       ",") +
            "}";
  return text;
}

std::string mlir::trellis::formatAxesTuple(ArrayRef<StringAttr> axes) {
  std::string text = "(";
  for (auto [i, axis] : llvm::enumerate(axes))
    text += (i ? ", '" : "'") + axis.getValue().str() + "'";
  if (axes.size() == 1)
    text += ",";
  return text + ")";
}

int64_t mlir::trellis::elementBytes(Type elementType) {
  if (elementType.isIndex())
    return 8;
  if (!elementType.isIntOrFloat())
    return 1;
  return std::max<int64_t>(1, (elementType.getIntOrFloatBitWidth() + 7) / 8);
}

bool mlir::trellis::isAxisPrefix(ArrayRef<StringAttr> prefix,
                                 ArrayRef<StringAttr> list) {
  return prefix.size() <= list.size() &&
         llvm::equal(prefix, list.take_front(prefix.size()));
}

bool mlir::trellis::isZeroConstant(Value v) {
  return matchPattern(v, m_Zero()) || matchPattern(v, m_AnyZeroFloat());
}

std::string mlir::trellis::formatShortLocation(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    os << llvm::sys::path::filename(file.getFilename().getValue()) << ':'
       << file.getLine() << ':' << file.getColumn();
  else
    os << loc;
  return text;
}

/// The name of the part (`preSize`, `size`) of mesh axis `index`: the
/// axis's own name when the part is all of it.
static StringAttr partName(MeshOp mesh, unsigned index, int64_t preSize,
                           int64_t size) {
  auto axis = cast<StringAttr>(mesh.getAxisNames()[index]);
  if (preSize == 1 && size == mesh.getAxisSizes()[index])
    return axis;
  return StringAttr::get(mesh.getContext(),
                         makeSubAxisName(axis.getValue(), preSize, size));
}

std::optional<SmallVector<SmallVector<StringAttr>>>
mlir::trellis::splitAxesOverFactors(MeshOp mesh, ArrayRef<int64_t> factorSizes,
                                    ArrayRef<StringAttr> axes, bool splitAxes) {
  SmallVector<SmallVector<StringAttr>> split(factorSizes.size());
  size_t f = 0;
  // What is left of factor f to split.
  int64_t room = factorSizes.empty() ? 1 : factorSizes[0];
  for (StringAttr axis : axes) {
    std::optional<AxisPart> part = mesh.resolveAxis(axis.getValue());
    if (!part)
      return std::nullopt;
    int64_t preSize = part->preSize, size = part->size;
    // A part of an axis is named as such only when it is less than `axis`.
    bool whole = true;
    while (size > 1) {
      while (room == 1 && f + 1 < factorSizes.size())
        room = factorSizes[++f];
      if (f >= factorSizes.size() || ShapedType::isDynamic(room) || room == 1)
        return std::nullopt;
      if (room % size == 0) {
        split[f].push_back(whole ? axis
                                 : partName(mesh, part->index, preSize, size));
        room /= size;
        break;
      }
      if (!splitAxes || size % room != 0)
        return std::nullopt;
      // The major `room` of the axis fills factor f; the rest goes on.
      split[f].push_back(partName(mesh, part->index, preSize, room));
      preSize *= room;
      size /= room;
      room = 1;
      whole = false;
    }
  }
  return split;
}

SmallVector<StringAttr> mlir::trellis::mergeSubAxes(MeshOp mesh,
                                                    ArrayRef<StringAttr> axes) {
  SmallVector<StringAttr> merged;
  std::optional<AxisPart> last;
  for (StringAttr axis : axes) {
    std::optional<AxisPart> part = mesh.resolveAxis(axis.getValue());
    bool isSub = part && !mesh.getAxisIndex(axis.getValue());
    if (isSub && last && last->index == part->index &&
        last->preSize * last->size == part->preSize) {
      last->size *= part->size;
      merged.back() = partName(mesh, last->index, last->preSize, last->size);
      continue;
    }
    merged.push_back(axis);
    last = isSub ? part : std::nullopt;
  }
  return merged;
}
