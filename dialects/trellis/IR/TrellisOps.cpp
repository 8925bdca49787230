//===- TrellisOps.cpp - Mesh and sharding ops -----------------------------===//

#include "dialects/trellis/IR/TrellisOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::trellis;

#include "dialects/trellis/IR/TrellisInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/trellis/IR/TrellisOps.cpp.inc"

//===----------------------------------------------------------------------===//
// MeshOp
//===----------------------------------------------------------------------===//

// trellis.mesh @name = <["i"=4, "j"=2], types = [explicit, auto],
//                       devices = [0, 1, ...]> attr-dict
ParseResult MeshOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  StringAttr name;
  if (parser.parseSymbolName(name) || parser.parseEqual() || parser.parseLess())
    return failure();
  SmallVector<Attribute> names;
  SmallVector<int64_t> sizes;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            std::string axis;
            int64_t size;
            if (parser.parseString(&axis) || parser.parseEqual() ||
                parser.parseInteger(size))
              return failure();
            names.push_back(b.getStringAttr(axis));
            sizes.push_back(size);
            return success();
          }))
    return failure();
  SmallVector<Attribute> types(
      names.size(), AxisTypeAttr::get(b.getContext(), AxisType::Auto));
  std::optional<SmallVector<int64_t>> devices;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword) || parser.parseEqual())
      return failure();
    if (keyword == "types") {
      types.clear();
      if (parser.parseCommaSeparatedList(
              OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
                StringRef typeName;
                SMLoc typeLoc = parser.getCurrentLocation();
                if (parser.parseKeyword(&typeName))
                  return failure();
                std::optional<AxisType> type = symbolizeAxisType(typeName);
                if (!type)
                  return parser.emitError(typeLoc)
                         << "unknown axis type '" << typeName
                         << "' (expected auto, explicit or manual)";
                types.push_back(AxisTypeAttr::get(b.getContext(), *type));
                return success();
              }))
        return failure();
    } else if (keyword == "devices") {
      devices.emplace();
      if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                         [&]() -> ParseResult {
                                           int64_t id;
                                           if (parser.parseInteger(id))
                                             return failure();
                                           devices->push_back(id);
                                           return success();
                                         }))
        return failure();
    } else {
      return parser.emitError(loc)
             << "expected 'types' or 'devices', got '" << keyword << "'";
    }
  }
  if (parser.parseGreater() || parser.parseOptionalAttrDict(result.attributes))
    return failure();
  auto &props = result.getOrAddProperties<MeshOp::Properties>();
  props.sym_name = name;
  props.axis_names = b.getArrayAttr(names);
  props.axis_sizes = b.getDenseI64ArrayAttr(sizes);
  props.axis_types = b.getArrayAttr(types);
  if (devices)
    props.device_ids = b.getDenseI64ArrayAttr(*devices);
  return success();
}

void MeshOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printSymbolName(getSymName());
  printer << " = <[";
  llvm::interleaveComma(
      llvm::zip(getAxisNames(), getAxisSizes()), printer, [&](auto pair) {
        printer.printString(cast<StringAttr>(std::get<0>(pair)).getValue());
        printer << '=' << std::get<1>(pair);
      });
  printer << ']';
  bool allAuto = llvm::all_of(getAxisTypes(), [](Attribute attr) {
    return cast<AxisTypeAttr>(attr).getValue() == AxisType::Auto;
  });
  if (!allAuto) {
    printer << ", types = [";
    llvm::interleaveComma(getAxisTypes(), printer, [&](Attribute attr) {
      printer << stringifyAxisType(cast<AxisTypeAttr>(attr).getValue());
    });
    printer << ']';
  }
  if (std::optional<ArrayRef<int64_t>> devices = getDeviceIds()) {
    printer << ", devices = [";
    llvm::interleaveComma(*devices, printer);
    printer << ']';
  }
  printer << '>';
  printer.printOptionalAttrDict(
      (*this)->getAttrs(),
      {"sym_name", "axis_names", "axis_sizes", "axis_types", "device_ids"});
}

/// Whether every axis size of `mesh` is positive and their product is at
/// most kMaxDevices (so device counts and positions never overflow).
static bool hasValidSizes(MeshOp mesh) {
  int64_t product = 1;
  for (int64_t size : mesh.getAxisSizes())
    if (size <= 0 || llvm::MulOverflow(product, size, product) ||
        product > MeshOp::kMaxDevices)
      return false;
  return true;
}

/// Whether `mesh` can be queried (axis names, sizes and types) without
/// reading out of bounds or casting wrongly. A sibling mesh may not have
/// been verified yet when the first mesh checks the encodings, so this
/// repeats the structural part of its checks.
static bool isQueryable(MeshOp mesh) {
  const MeshOp::Properties &props = mesh.getProperties();
  auto names = llvm::dyn_cast_or_null<ArrayAttr>(props.axis_names);
  auto types = llvm::dyn_cast_or_null<ArrayAttr>(props.axis_types);
  auto sizes = llvm::dyn_cast_or_null<DenseI64ArrayAttr>(props.axis_sizes);
  if (!names || !types || !sizes || names.empty() ||
      names.size() != static_cast<size_t>(sizes.size()) ||
      names.size() != types.size() || !hasValidSizes(mesh))
    return false;
  return llvm::all_of(names, llvm::IsaPred<StringAttr>) &&
         llvm::all_of(types, llvm::IsaPred<AxisTypeAttr>);
}

LogicalResult MeshOp::verify() {
  if (getAxisNames().empty())
    return emitOpError("needs at least one axis");
  if (getAxisNames().size() != getAxisSizes().size() ||
      getAxisNames().size() != getAxisTypes().size())
    return emitOpError("has ")
           << getAxisNames().size() << " axis names, " << getAxisSizes().size()
           << " sizes and " << getAxisTypes().size()
           << " types; they must match";
  llvm::SmallDenseSet<StringAttr> seen;
  for (auto [attr, size] : llvm::zip(getAxisNames(), getAxisSizes())) {
    auto axis = cast<StringAttr>(attr);
    if (axis.getValue().empty())
      return emitOpError("axis names must be non-empty");
    if (!seen.insert(axis).second)
      return emitOpError("axis \"")
             << axis.getValue() << "\" is declared twice";
    if (size <= 0)
      return emitOpError("axis \"")
             << axis.getValue() << "\" must have a positive size, got " << size;
  }
  if (!hasValidSizes(*this))
    return emitOpError("has more than ")
           << kMaxDevices << " devices (the product of its axis sizes)";
  if (std::optional<ArrayRef<int64_t>> devices = getDeviceIds()) {
    int64_t count = getNumDevices();
    if (static_cast<int64_t>(devices->size()) != count)
      return emitOpError("lists ")
             << devices->size() << " devices but the mesh has " << count
             << " positions";
    SmallVector<bool> used(count, false);
    for (int64_t id : *devices) {
      if (id < 0 || id >= count || used[id])
        return emitOpError("devices must be a permutation of 0..")
               << count - 1 << "; got device " << id
               << (id >= 0 && id < count ? " twice" : " out of range");
      used[id] = true;
    }
  }
  // The first mesh of a symbol table checks every sharding encoding in that
  // table: types have no verifier of their own that can see symbols.
  Operation *parent = (*this)->getParentOp();
  if (parent && parent->hasTrait<OpTrait::SymbolTable>()) {
    MeshOp first;
    for (Operation &sibling : (*this)->getBlock()->getOperations()) {
      auto mesh = dyn_cast<MeshOp>(sibling);
      if (!mesh)
        continue;
      if (!first)
        first = mesh;
      // Encodings are checked only once every mesh is well formed; an
      // invalid mesh reports itself.
      if (!isQueryable(mesh))
        return success();
    }
    if (first == *this)
      return verifyShardingEncodings(parent);
  }
  return success();
}

std::optional<unsigned> MeshOp::getAxisIndex(StringRef axis) {
  for (auto [index, attr] : llvm::enumerate(getAxisNames()))
    if (cast<StringAttr>(attr).getValue() == axis)
      return index;
  return std::nullopt;
}

std::optional<AxisPart> MeshOp::resolveAxis(StringRef axis) {
  if (std::optional<unsigned> index = getAxisIndex(axis))
    return AxisPart{*index, 1, getAxisSizes()[*index]};
  std::optional<SubAxisName> sub = parseSubAxisName(axis);
  if (!sub)
    return std::nullopt;
  std::optional<unsigned> index = getAxisIndex(sub->axis);
  if (!index)
    return std::nullopt;
  int64_t whole = getAxisSizes()[*index];
  if (sub->preSize > whole || sub->size > whole)
    return std::nullopt;
  int64_t span = sub->preSize * sub->size;
  if (sub->size < 2 || span > whole || whole % span != 0 ||
      (span == whole && sub->preSize == 1))
    return std::nullopt;
  return AxisPart{*index, sub->preSize, sub->size};
}

bool MeshOp::axesOverlap(StringRef a, StringRef b) {
  if (a == b)
    return true;
  std::optional<AxisPart> partA = resolveAxis(a), partB = resolveAxis(b);
  return partA && partB && partA->overlaps(*partB);
}

int64_t MeshOp::getAxisSize(StringRef axis) {
  std::optional<AxisPart> part = resolveAxis(axis);
  assert(part && "unknown mesh axis");
  return part->size;
}

int64_t MeshOp::getAxesSize(ArrayRef<StringAttr> axes) {
  int64_t product = 1;
  for (StringAttr axis : axes)
    product *= getAxisSize(axis.getValue());
  return product;
}

AxisType MeshOp::getAxisType(unsigned index) {
  return cast<AxisTypeAttr>(getAxisTypes()[index]).getValue();
}

int64_t MeshOp::getNumDevices() {
  int64_t product = 1;
  for (int64_t size : getAxisSizes())
    product *= size;
  return product;
}

SmallVector<int64_t> MeshOp::getDeviceOrder() {
  if (std::optional<ArrayRef<int64_t>> devices = getDeviceIds())
    return llvm::to_vector(*devices);
  return llvm::to_vector(llvm::seq<int64_t>(0, getNumDevices()));
}

//===----------------------------------------------------------------------===//
// ReshardOp / ShardingConstraintOp
//===----------------------------------------------------------------------===//

LogicalResult ReshardOp::verify() {
  auto inType = cast<RankedTensorType>(getInput().getType());
  auto outType = cast<RankedTensorType>(getResult().getType());
  if (inType.getShape() != outType.getShape() ||
      inType.getElementType() != outType.getElementType())
    return emitOpError("changes only the sharding; operand ")
           << inType << " and result " << outType
           << " differ in shape or element type";
  return success();
}

/// The value passes through unchanged: the elementwise rule.
FailureOr<ShardingRule> ShardingConstraintOp::getShardingRule() {
  return elementwiseRule(getOperation());
}

LogicalResult ShardingConstraintOp::verify() {
  auto type = cast<RankedTensorType>(getInput().getType());
  ShardingAttr sharding = getSharding();
  if (sharding.getDims().size() != static_cast<size_t>(type.getRank()))
    return emitOpError("sharding has ")
           << sharding.getDims().size()
           << " dimensions but the tensor has rank " << type.getRank();
  return success();
}

/// The mesh checks run once every op is verified (the mesh included), with
/// the symbol tables looked up once per verification.
LogicalResult
ShardingConstraintOp::verifySymbolUses(SymbolTableCollection &tables) {
  ShardingAttr sharding = getSharding();
  auto mesh = tables.lookupNearestSymbolFrom<MeshOp>(*this, sharding.getMesh());
  if (!mesh)
    return emitOpError("names unknown mesh ") << sharding.getMesh();
  return verifyShardingForShape(
      sharding, cast<RankedTensorType>(getInput().getType()).getShape(), mesh,
      [&] { return emitOpError(); }, /*allowUneven=*/true);
}

//===----------------------------------------------------------------------===//
// AutoAxesOp / ExplicitAxesOp
//===----------------------------------------------------------------------===//

/// Shared checks of the axis-type region ops. `inside` maps an outside type to
/// the type it must have inside the region and back.
static LogicalResult verifyAxisRegion(Operation *op,
                                      SymbolTableCollection &tables,
                                      FlatSymbolRefAttr meshRef,
                                      ArrayAttr axesAttr, AxisType fromType,
                                      AxisType toType, bool stripOutside) {
  auto mesh = tables.lookupNearestSymbolFrom<MeshOp>(op, meshRef);
  if (!mesh)
    return op->emitOpError("names unknown mesh ") << meshRef;
  SmallVector<StringAttr> axes;
  llvm::SmallDenseSet<StringAttr> seen;
  for (Attribute attr : axesAttr) {
    auto axis = cast<StringAttr>(attr);
    if (!mesh.getAxisIndex(axis.getValue()))
      return op->emitOpError("names unknown mesh axis \"")
             << axis.getValue() << "\" of mesh " << meshRef;
    if (!seen.insert(axis).second)
      return op->emitOpError("lists mesh axis \"")
             << axis.getValue() << "\" twice";
    AxisType current = getAxisTypeAt(op, mesh, axis.getValue());
    if (current != fromType)
      return op->emitOpError("switches mesh axis \"")
             << axis.getValue() << "\" from " << stringifyAxisType(fromType)
             << " to " << stringifyAxisType(toType) << ", but it is "
             << stringifyAxisType(current) << " here";
    axes.push_back(axis);
  }

  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != op->getNumOperands())
    return op->emitOpError("has ")
           << op->getNumOperands() << " operands but its body takes "
           << body.getNumArguments() << " arguments";
  // `stripOutside`: the outside type loses the axes (auto_axes); otherwise
  // the inside type does (explicit_axes).
  auto check = [&](Type outside, Type inside, StringRef insideWhat,
                   StringRef outsideWhat, unsigned index) -> LogicalResult {
    if (stripOutside) {
      Type expected = dropAxesFromType(outside, axes);
      if (expected == inside)
        return success();
      return op->emitOpError()
             << insideWhat << " #" << index << " has type " << inside
             << ", expected " << expected << " (" << outsideWhat << " #"
             << index << "'s type without the listed axes)";
    }
    Type stripped = dropAxesFromType(inside, axes);
    if (stripped == outside)
      return success();
    return op->emitOpError()
           << insideWhat << " #" << index << " has type " << inside
           << ", which without the listed axes is " << stripped << ", but "
           << outsideWhat << " #" << index << " has type " << outside;
  };
  for (auto [index, pair] : llvm::enumerate(
           llvm::zip(op->getOperandTypes(), body.getArgumentTypes())))
    if (failed(check(std::get<0>(pair), std::get<1>(pair), "body argument",
                     "operand", index)))
      return failure();
  Operation *terminator = body.getTerminator();
  if (terminator->getNumOperands() != op->getNumResults())
    return op->emitOpError("has ")
           << op->getNumResults() << " results but its body yields "
           << terminator->getNumOperands() << " values";
  for (auto [index, pair] : llvm::enumerate(
           llvm::zip(op->getResultTypes(), terminator->getOperandTypes())))
    if (failed(check(std::get<0>(pair), std::get<1>(pair), "yielded value",
                     "result", index)))
      return failure();
  return success();
}

LogicalResult AutoAxesOp::verifySymbolUses(SymbolTableCollection &tables) {
  return verifyAxisRegion(*this, tables, getMeshAttr(), getAxes(),
                          AxisType::Explicit, AxisType::Auto,
                          /*stripOutside=*/true);
}

LogicalResult ExplicitAxesOp::verifySymbolUses(SymbolTableCollection &tables) {
  return verifyAxisRegion(*this, tables, getMeshAttr(), getAxes(),
                          AxisType::Auto, AxisType::Explicit,
                          /*stripOutside=*/false);
}

static std::optional<AxisType> axisTypeIfListed(ArrayAttr axes, StringRef axis,
                                                AxisType type) {
  for (Attribute attr : axes)
    if (cast<StringAttr>(attr).getValue() == axis)
      return type;
  return std::nullopt;
}

FlatSymbolRefAttr AutoAxesOp::getSwitchedMesh() { return getMeshAttr(); }
std::optional<AxisType> AutoAxesOp::getAxisTypeInside(StringRef axis) {
  return axisTypeIfListed(getAxes(), axis, AxisType::Auto);
}
FlatSymbolRefAttr ExplicitAxesOp::getSwitchedMesh() { return getMeshAttr(); }
std::optional<AxisType> ExplicitAxesOp::getAxisTypeInside(StringRef axis) {
  return axisTypeIfListed(getAxes(), axis, AxisType::Explicit);
}

//===----------------------------------------------------------------------===//
// PropagationBarrierOp
//===----------------------------------------------------------------------===//

LogicalResult PropagationBarrierOp::verify() {
  StringRef direction = getAllowedDirection();
  if (direction != "forward" && direction != "backward" && direction != "none")
    return emitOpError("allowed_direction must be \"forward\", \"backward\" "
                       "or \"none\", got \"")
           << direction << "\"";
  return success();
}
