//===- ShardMapOp.cpp - spmd.shard_map: syntax, accessors, verifier -------===//

#include "dialects/spmd/IR/ManualContext.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::spmd;
using trellis::MeshOp;
using trellis::SpecAttr;

LogicalResult mlir::spmd::verifyOutputVariance(ShardMapOp op, unsigned index,
                                               ArrayRef<StringAttr> vary,
                                               Value yielded) {
  if (!op.getCheckVma() || index >= op.getOutSpecs().size())
    return success();
  auto spec = cast<SpecAttr>(op.getOutSpecs()[index]);
  SmallVector<StringAttr> mapped = spec.getAllAxes();
  SmallVector<StringAttr> bad;
  for (StringAttr axis : op.getOwnManualAxes())
    if (llvm::is_contained(vary, axis) && !llvm::is_contained(mapped, axis))
      bad.push_back(axis);
  if (bad.empty())
    return success();
  std::string list =
      llvm::join(llvm::map_range(bad,
                                 [](StringAttr axis) {
                                   return ("\"" + axis.getValue() + "\"").str();
                                 }),
                 ", ");
  bool one = bad.size() == 1;
  InFlightDiagnostic diag = op.emitOpError();
  diag << "output #" << index << " may vary over mesh "
       << (one ? "axis " : "axes ") << list << ", but out_specs[" << index
       << "] does not mention " << (one ? "it" : "them")
       << " (an unmapped output promises equal blocks); psum it over " << list
       << " before yielding (spmd.psum ... over [" << list << "]), or mention "
       << list << " in out_specs[" << index << "]";
  if (Operation *def = yielded ? yielded.getDefiningOp() : nullptr)
    diag.attachNote(def->getLoc())
        << "output #" << index << " is computed here";
  return diag;
}

//===----------------------------------------------------------------------===//
// ShardMapOp
//===----------------------------------------------------------------------===//

static ParseResult parseSpecList(OpAsmParser &parser, ArrayAttr &specs) {
  SmallVector<Attribute> list;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            FailureOr<SpecAttr> spec = SpecAttr::parseBare(parser);
            if (failed(spec))
              return failure();
            list.push_back(*spec);
            return success();
          }))
    return failure();
  specs = parser.getBuilder().getArrayAttr(list);
  return success();
}

static void printSpecList(OpAsmPrinter &printer, ArrayAttr specs) {
  printer << '[';
  llvm::interleaveComma(specs, printer, [&](Attribute spec) {
    cast<SpecAttr>(spec).printBare(printer);
  });
  printer << ']';
}

// spmd.shard_map @mesh [manual_axes = [...]] in_specs = [...]
//     out_specs = [...] [check_vma = false] (%a, ...) : (T, ...) -> R
//     [attributes {...}] { body }
ParseResult ShardMapOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  auto &props = result.getOrAddProperties<ShardMapOp::Properties>();
  FlatSymbolRefAttr mesh;
  if (parser.parseAttribute(mesh))
    return failure();
  props.mesh = mesh;
  if (succeeded(parser.parseOptionalKeyword("manual_axes"))) {
    ArrayAttr axes;
    if (parser.parseEqual() || parser.parseAttribute(axes))
      return failure();
    props.manual_axes = axes;
  }
  ArrayAttr inSpecs, outSpecs;
  if (parser.parseKeyword("in_specs") || parser.parseEqual() ||
      parseSpecList(parser, inSpecs) || parser.parseKeyword("out_specs") ||
      parser.parseEqual() || parseSpecList(parser, outSpecs))
    return failure();
  props.in_specs = inSpecs;
  props.out_specs = outSpecs;
  if (succeeded(parser.parseOptionalKeyword("check_vma"))) {
    BoolAttr check;
    if (parser.parseEqual() || parser.parseAttribute(check))
      return failure();
    props.check_vma = check;
  }
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  FunctionType type;
  SMLoc operandsLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands, OpAsmParser::Delimiter::Paren) ||
      parser.parseColonType(type) ||
      parser.resolveOperands(operands, type.getInputs(), operandsLoc,
                             result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addTypes(type.getResults());
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, /*arguments=*/{}))
    return failure();
  (void)b;
  return success();
}

void ShardMapOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printAttributeWithoutType(getMeshAttr());
  if (std::optional<ArrayAttr> axes = getManualAxes()) {
    printer << " manual_axes = ";
    printer.printAttribute(*axes);
  }
  printer << " in_specs = ";
  printSpecList(printer, getInSpecs());
  printer << " out_specs = ";
  printSpecList(printer, getOutSpecs());
  if (!getCheckVma())
    printer << " check_vma = false";
  printer << " (";
  printer << getInputs();
  printer << ") : ";
  printer.printFunctionalType(getInputs().getTypes(), getResultTypes());
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {"mesh", "manual_axes", "in_specs", "out_specs", "check_vma"});
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/true,
                      /*printBlockTerminators=*/true);
}

MeshOp ShardMapOp::getMeshOp() {
  return trellis::lookupMesh(*this, getMeshAttr());
}

SmallVector<StringAttr> ShardMapOp::getOwnManualAxes() {
  MeshOp mesh = getMeshOp();
  SmallVector<StringAttr> axes;
  if (std::optional<ArrayAttr> listed = getManualAxes())
    axes = llvm::to_vector(listed->getAsRange<StringAttr>());
  else if (mesh)
    for (Attribute name : mesh.getAxisNames())
      if (trellis::getAxisTypeAt(*this, mesh,
                                 cast<StringAttr>(name).getValue()) !=
          trellis::AxisType::Manual)
        axes.push_back(cast<StringAttr>(name));
  return mesh ? sortAxesInMeshOrder(axes, mesh) : axes;
}

SmallVector<StringAttr> ShardMapOp::getAllManualAxes() {
  MeshOp mesh = getMeshOp();
  if (!mesh)
    return {};
  SmallVector<StringAttr> own = getOwnManualAxes();
  SmallVector<StringAttr> all;
  for (Attribute attr : mesh.getAxisNames()) {
    auto name = cast<StringAttr>(attr);
    if (llvm::is_contained(own, name) ||
        trellis::getAxisTypeAt(*this, mesh, name.getValue()) ==
            trellis::AxisType::Manual)
      all.push_back(name);
  }
  return all;
}

FlatSymbolRefAttr ShardMapOp::getSwitchedMesh() { return getMeshAttr(); }

std::optional<trellis::AxisType> ShardMapOp::getAxisTypeInside(StringRef axis) {
  for (StringAttr own : getOwnManualAxes())
    if (own.getValue() == axis)
      return trellis::AxisType::Manual;
  return std::nullopt;
}

/// Checks that `spec` only names manual axes of `mesh` and fits a tensor of
/// rank `rank`.
static LogicalResult verifySpec(ShardMapOp op, SpecAttr spec, int64_t rank,
                                ArrayRef<StringAttr> manual, StringRef what,
                                unsigned index) {
  if (static_cast<int64_t>(spec.getDims().size()) > rank)
    return op.emitOpError()
           << what << "[" << index << "] has " << spec.getDims().size()
           << " entries but the tensor has rank " << rank;
  MeshOp mesh = op.getMeshOp();
  for (StringAttr axis : spec.getAllAxes()) {
    if (!mesh.getAxisIndex(axis.getValue()))
      return op.emitOpError()
             << what << "[" << index << "] names unknown mesh axis \""
             << axis.getValue() << "\" (mesh @" << mesh.getSymName()
             << " has axes " << mesh.getAxisNames() << ")";
    if (!llvm::is_contained(manual, axis))
      return op.emitOpError()
             << what << "[" << index << "] names mesh axis \""
             << axis.getValue()
             << "\", which this shard_map does not make manual (manual axes: "
             << formatAxisSet(manual) << ")";
  }
  return success();
}

/// Checks the listed manual axes: each exists, is listed once and is not
/// manual already.
static LogicalResult verifyManualAxesList(ShardMapOp op, MeshOp mesh) {
  std::optional<ArrayAttr> listed = op.getManualAxes();
  if (!listed)
    return success();
  llvm::SmallDenseSet<StringAttr> seen;
  for (StringAttr axis : listed->getAsRange<StringAttr>()) {
    if (!mesh.getAxisIndex(axis.getValue()))
      return op.emitOpError("manual_axes names unknown mesh axis \"")
             << axis.getValue() << "\" (mesh @" << mesh.getSymName()
             << " has axes " << mesh.getAxisNames() << ")";
    if (!seen.insert(axis).second)
      return op.emitOpError("manual_axes lists \"")
             << axis.getValue() << "\" twice";
    if (trellis::getAxisTypeAt(op, mesh, axis.getValue()) ==
        trellis::AxisType::Manual)
      return op.emitOpError("mesh axis \"")
             << axis.getValue() << "\" is already manual here";
  }
  return success();
}

/// Checks that there is one in_spec and one body argument per input and one
/// out_spec per result.
static LogicalResult verifyCounts(ShardMapOp op) {
  if (op.getInSpecs().size() != op.getInputs().size())
    return op.emitOpError("has ") << op.getInputs().size() << " inputs but "
                                  << op.getInSpecs().size() << " in_specs";
  if (op.getOutSpecs().size() != op.getNumResults())
    return op.emitOpError("has ") << op.getNumResults() << " results but "
                                  << op.getOutSpecs().size() << " out_specs";
  Block &body = op.getBodyBlock();
  if (body.getNumArguments() != op.getInputs().size())
    return op.emitOpError("has ")
           << op.getInputs().size() << " inputs but its body takes "
           << body.getNumArguments() << " arguments";
  return success();
}

/// Checks body argument #`index` against operand #`index`: a ranked tensor
/// of the operand's element type and rank, whose shape is the operand's
/// split by in_specs[`index`].
static LogicalResult verifyInputShape(ShardMapOp op, MeshOp mesh,
                                      unsigned index,
                                      ArrayRef<StringAttr> manual) {
  Value input = op.getInputs()[index];
  BlockArgument arg = op.getBodyBlock().getArgument(index);
  auto global = cast<RankedTensorType>(input.getType());
  auto spec = cast<SpecAttr>(op.getInSpecs()[index]);
  if (failed(verifySpec(op, spec, global.getRank(), manual, "in_specs", index)))
    return failure();
  auto local = dyn_cast<RankedTensorType>(arg.getType());
  if (!local)
    return op.emitOpError("body argument #")
           << index << " must be a ranked tensor, got " << arg.getType();
  if (local.getElementType() != global.getElementType())
    return op.emitOpError("body argument #")
           << index << " has element type " << local.getElementType()
           << " but operand #" << index << " has " << global.getElementType();
  if (local.getRank() != global.getRank())
    return op.emitOpError("body argument #")
           << index << " has rank " << local.getRank() << " but operand #"
           << index << " has rank " << global.getRank()
           << " (shard_map preserves ranks)";
  SmallVector<int64_t> expected(global.getShape());
  for (int64_t dim = 0; dim < global.getRank(); ++dim) {
    ArrayRef<StringAttr> axes = spec.getAxes(dim);
    if (axes.empty() || ShapedType::isDynamic(expected[dim]))
      continue;
    int64_t parts = mesh.getAxesSize(axes);
    if (expected[dim] % parts != 0)
      return op.emitOpError("dimension ")
             << dim << " of operand #" << index << " has size " << expected[dim]
             << ", which is not divisible by " << parts
             << ", the size of mesh axes " << formatAxisSet(axes)
             << " in in_specs[" << index << "]";
    expected[dim] /= parts;
  }
  if (local.getShape() != ArrayRef<int64_t>(expected))
    return op.emitOpError("body argument #")
           << index << " has shape " << formatShape(local.getShape())
           << ", expected " << formatShape(expected) << " (operand shape "
           << formatShape(global.getShape()) << " split by in_specs[" << index
           << "])";
  return success();
}

/// Checks the encoding of body argument #`index`: without `#spmd.vary` it
/// keeps the operand's sharding over the explicit axes the shard_map leaves
/// alone; with it, it varies over every axis in_specs[`index`] splits it
/// over.
static LogicalResult verifyInputEncoding(ShardMapOp op, unsigned index) {
  auto global = cast<RankedTensorType>(op.getInputs()[index].getType());
  auto local =
      cast<RankedTensorType>(op.getBodyBlock().getArgument(index).getType());
  auto spec = cast<SpecAttr>(op.getInSpecs()[index]);
  // Explicit axes the shard_map leaves alone keep their sharding inside.
  if (!getVaryEncoding(local)) {
    trellis::ShardingAttr outside = trellis::getShardingEncoding(
        trellis::dropAxesFromType(global, op.getAllManualAxes()));
    trellis::ShardingAttr inside = trellis::getShardingEncoding(local);
    if (outside != inside)
      return op.emitOpError("body argument #")
             << index << " has type " << local
             << ", but the explicit axes this shard_map leaves alone must "
                "keep operand #"
             << index << "'s sharding: expected "
             << (outside ? Attribute(outside) : Attribute())
             << (outside ? "" : "no sharding");
  }
  if (VaryAttr vary = getVaryEncoding(local)) {
    for (StringAttr axis : spec.getAllAxes())
      if (!vary.contains(axis))
        return op.emitOpError("body argument #")
               << index << " is split over mesh axis \"" << axis.getValue()
               << "\" by in_specs[" << index
               << "], so its type must vary over it";
  }
  return success();
}

/// Checks yielded value #`index` against result #`index`: a ranked tensor
/// of the result's element type and rank, whose shape concatenated by
/// out_specs[`index`] is the result's, and whose variance the out_spec
/// allows.
static LogicalResult verifyOutput(ShardMapOp op, MeshOp mesh, unsigned index,
                                  ArrayRef<StringAttr> manual) {
  Operation *terminator = op.getBodyBlock().getTerminator();
  Type yieldedType = terminator->getOperand(index).getType();
  auto global = cast<RankedTensorType>(op.getResultTypes()[index]);
  auto local = dyn_cast<RankedTensorType>(yieldedType);
  auto spec = cast<SpecAttr>(op.getOutSpecs()[index]);
  if (failed(
          verifySpec(op, spec, global.getRank(), manual, "out_specs", index)))
    return failure();
  if (!local)
    return op.emitOpError("yielded value #")
           << index << " must be a ranked tensor, got " << yieldedType;
  if (local.getElementType() != global.getElementType())
    return op.emitOpError("yielded value #")
           << index << " has element type " << local.getElementType()
           << " but result #" << index << " has " << global.getElementType();
  if (local.getRank() != global.getRank())
    return op.emitOpError("yielded value #")
           << index << " has rank " << local.getRank() << " but result #"
           << index << " has rank " << global.getRank()
           << " (shard_map preserves ranks)";
  SmallVector<int64_t> expected(local.getShape());
  for (int64_t dim = 0; dim < local.getRank(); ++dim)
    if (!ShapedType::isDynamic(expected[dim]))
      expected[dim] *= mesh.getAxesSize(spec.getAxes(dim));
  if (global.getShape() != ArrayRef<int64_t>(expected))
    return op.emitOpError("result #")
           << index << " has shape " << formatShape(global.getShape())
           << ", expected " << formatShape(expected) << " (yielded shape "
           << formatShape(local.getShape()) << " concatenated by out_specs["
           << index << "])";
  if (VaryAttr vary = getVaryEncoding(local))
    if (failed(verifyOutputVariance(op, index, vary.getAxes(),
                                    terminator->getOperand(index))))
      return failure();
  return success();
}

/// What needs no mesh: the counts of specs, arguments and yielded values.
LogicalResult ShardMapOp::verify() {
  if (failed(verifyCounts(*this)))
    return failure();
  Operation *terminator = getBodyBlock().getTerminator();
  if (terminator->getNumOperands() != getNumResults())
    return emitOpError("has ")
           << getNumResults() << " results but its body yields "
           << terminator->getNumOperands() << " values";
  return success();
}

/// Everything that needs the mesh runs once every op is verified (the mesh
/// included), with the symbol tables looked up once per verification.
LogicalResult ShardMapOp::verifySymbolUses(SymbolTableCollection &tables) {
  auto mesh = tables.lookupNearestSymbolFrom<MeshOp>(*this, getMeshAttr());
  if (!mesh)
    return emitOpError("names unknown mesh ") << getMeshAttr();
  if (failed(verifyManualAxesList(*this, mesh)))
    return failure();
  SmallVector<StringAttr> manual = getOwnManualAxes();
  for (unsigned index = 0, e = getInputs().size(); index < e; ++index)
    if (failed(verifyInputShape(*this, mesh, index, manual)) ||
        failed(verifyInputEncoding(*this, index)))
      return failure();
  for (unsigned index = 0, e = getNumResults(); index < e; ++index)
    if (failed(verifyOutput(*this, mesh, index, manual)))
      return failure();
  return success();
}

ShardMapOp mlir::spmd::getWholeFunctionShardMap(FunctionOpInterface func) {
  if (func.isExternal() || !func.getFunctionBody().hasOneBlock())
    return nullptr;
  Block &body = func.getFunctionBody().front();
  if (body.getOperations().size() != 2)
    return nullptr;
  auto map = dyn_cast<ShardMapOp>(body.front());
  if (!map || !map.getMeshOp() ||
      map.getAllManualAxes().size() != map.getMeshOp().getNumAxes())
    return nullptr;
  return map;
}
