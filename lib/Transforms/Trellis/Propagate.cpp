//===- Propagate.cpp - Sharding propagation over auto axes ----------------===//
//
// Each tensor value has, per dimension, a list of mesh axes and whether the
// list may still grow (open) or not (closed). Ops relate dimensions through
// their sharding rules: all dimensions holding one factor should be split
// the same way. Propagation repeatedly picks, for each factor, the axes its
// dimensions should share and extends every open dimension that is a prefix
// of them, until nothing changes. Control flow ties values together
// (a loop carry, its init, yield and result) so they share one state.
//
//===----------------------------------------------------------------------===//

#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "dialects/trellis/Interfaces/ShardingRule.h"
#include "lib/Transforms/Trellis/Propagator.h"
#include "trellis/Transforms/Trellis/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/StringSet.h"

#include <map>
#include <set>

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISPROPAGATE
#include "trellis/Transforms/Trellis/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::propagation;

namespace mlir::trellis::propagation {

std::string Propagator::describe(const DimState &dim) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (dim.axes.empty()) {
    os << "whole";
    return text;
  }
  os << "over ";
  llvm::interleave(
      dim.axes, os, [&](StringAttr a) { os << a.getValue(); }, ",");
  os << ": ";
  if (dim.origin.source < 0) {
    os << "unknown";
    return text;
  }
  os << sources[dim.origin.source];
  if (dim.origin.hops == 0)
    os << " (given)";
  else
    os << " through " << dim.origin.hops
       << (dim.origin.hops == 1 ? " op" : " ops")
       << " (last: " << dim.origin.via->getName() << " at "
       << formatShortLocation(dim.origin.via->getLoc()) << ")";
  return text;
}

StringAttr Propagator::originOf(Value v) {
  ValueState *st = state(v);
  if (!st)
    return {};
  std::string text;
  for (auto [d, dim] : llvm::enumerate(st->dims))
    text += (d ? "; dim " : "dim ") + std::to_string(d) + " " + describe(dim);
  return StringAttr::get(v.getContext(), text);
}

ShardingAttr Propagator::shardingOf(Value v) {
  ValueState *st = state(v);
  if (!st)
    return {};
  SmallVector<DimShardingAttr> dims;
  for (const DimState &dim : st->dims)
    dims.push_back(DimShardingAttr::get(v.getContext(), dim.axes));
  return ShardingAttr::get(v.getContext(),
                           FlatSymbolRefAttr::get(mesh.getSymNameAttr()), dims);
}

void Propagator::writeBack() {
  // The user's argument and result shardings stay as given; the others
  // are what propagation found.
  if (explain) {
    for (BlockArgument arg : func.getArguments())
      if (StringAttr origin = originOf(arg))
        func.setArgAttr(arg.getArgNumber(),
                        TrellisDialect::kShardingOriginAttrName, origin);
    func.walk([&](Operation *op) {
      SmallVector<Attribute> origins;
      for (Value result : op->getResults())
        if (StringAttr origin = originOf(result))
          origins.push_back(origin);
      if (origins.empty() || origins.size() != op->getNumResults() ||
          op->getParentOfType<linalg::LinalgOp>())
        return;
      op->setAttr(TrellisDialect::kShardingOriginAttrName,
                  origins.size() == 1
                      ? origins[0]
                      : ArrayAttr::get(op->getContext(), origins));
    });
  }
  for (BlockArgument arg : func.getArguments())
    if (!func.getArgAttr(arg.getArgNumber(), TrellisDialect::kShardingAttrName))
      if (ShardingAttr s = shardingOf(arg))
        func.setArgAttr(arg.getArgNumber(), TrellisDialect::kShardingAttrName,
                        s);
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (auto [j, value] : llvm::enumerate(ret.getOperands()))
    if (!func.getResultAttr(j, TrellisDialect::kShardingAttrName))
      if (ShardingAttr s = shardingOf(value))
        func.setResultAttr(j, TrellisDialect::kShardingAttrName, s);
  SmallVector<Operation *> argOwners(partialMaps.begin(), partialMaps.end());
  llvm::append_range(argOwners, axisRegions);
  for (Operation *owner : argOwners) {
    Block &body = owner->getRegion(0).front();
    SmallVector<Attribute> args;
    for (BlockArgument arg : body.getArguments())
      if (ShardingAttr s = shardingOf(arg))
        args.push_back(s);
    if (args.size() == body.getNumArguments())
      owner->setAttr(TrellisDialect::kArgShardingsAttrName,
                     ArrayAttr::get(owner->getContext(), args));
  }
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto map = dyn_cast<spmd::ShardMapOp>(op);
        map && !llvm::is_contained(partialMaps, map))
      return WalkResult::skip();
    if (isa<ShardingConstraintOp>(op) || op->getNumResults() == 0 ||
        op->getParentOfType<linalg::LinalgOp>())
      return WalkResult::advance();
    SmallVector<Attribute> shardings;
    bool any = false;
    for (Value result : op->getResults()) {
      ShardingAttr s = shardingOf(result);
      any |= static_cast<bool>(s);
      shardings.push_back(s ? Attribute(s)
                            : Attribute(UnitAttr::get(op->getContext())));
    }
    if (!any || llvm::any_of(shardings, llvm::IsaPred<UnitAttr>))
      return WalkResult::advance();
    if (shardings.size() == 1)
      op->setAttr(TrellisDialect::kShardingAttrName, shardings[0]);
    else
      op->setAttr(TrellisDialect::kShardingAttrName,
                  ArrayAttr::get(op->getContext(), shardings));
    return WalkResult::advance();
  });
}

} // namespace mlir::trellis::propagation

namespace {

struct PropagatePass
    : mlir::trellis::impl::TrellisPropagateBase<PropagatePass> {
  using TrellisPropagateBase::TrellisPropagateBase;
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.getBody().hasOneBlock() ||
          func->hasAttr(spmd::SpmdDialect::kMeshAttrName))
        continue;
      FailureOr<MeshOp> mesh = findFunctionMesh(func);
      if (failed(mesh))
        return signalPassFailure();
      if (!*mesh)
        continue;
      if (failed(Propagator(func, *mesh, conservative, explain).run()))
        return signalPassFailure();
    }
  }
};

} // namespace
