//===- VarianceAnalysis.cpp - Which axes each value varies over -----------===//
//
// A sparse forward data-flow analysis over a lattice of axis masks (join =
// union). The framework carries values along SSA edges and the edges of
// every RegionBranchOpInterface op; it does not model control dependence,
// which variance needs: `scf.if %c` yielding two constants varies wherever
// %c does. visitRegionSuccessors therefore also joins the operands that
// steer control (an scf.if's condition, an scf.for's bounds, an
// scf.condition's flag: every operand not forwarded to a successor) into
// every value the op or terminator forwards.
//
// Every block is analysed, taken or not: the IR is typed as a whole, so
// DeadCodeAnalysis is fed constant lattices that are all unknown instead of
// constant propagation.
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/Spmd/VarianceAnalysis.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::spmd;
using namespace mlir::dataflow;

//===----------------------------------------------------------------------===//
// Masks and collectives
//===----------------------------------------------------------------------===//

AxisMask AxisMasks::maskOf(ArrayRef<StringAttr> axes) const {
  AxisMask m = 0;
  for (StringAttr axis : axes)
    if (std::optional<unsigned> index = mesh.getAxisIndex(axis.getValue()))
      m |= AxisMask(1) << *index;
  return m;
}

AxisMask AxisMasks::maskOf(ArrayAttr axes) const {
  return maskOf(llvm::to_vector(axes.getAsRange<StringAttr>()));
}

SmallVector<StringAttr> AxisMasks::axesOf(AxisMask m) const {
  SmallVector<StringAttr> axes;
  for (auto [k, name] : llvm::enumerate(mesh.getAxisNames()))
    if (m & (AxisMask(1) << k))
      axes.push_back(cast<StringAttr>(name));
  return axes;
}

std::string AxisMasks::format(AxisMask m) const {
  return formatAxisSet(axesOf(m));
}

std::string AxisMasks::formatList(AxisMask m) const {
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(axesOf(m), os, [&](StringAttr axis) {
    os << '"' << axis.getValue() << '"';
  });
  return text + "]";
}

AxisMask AxisMasks::queryMask(CollectiveOpInterface query) const {
  std::string ignored;
  FailureOr<SmallVector<StringAttr>> vary =
      query.getVarianceRule()->apply({}, query.getAxisList(), ignored);
  return succeeded(vary) ? maskOf(*vary) : 0;
}

CollectiveOpInterface mlir::spmd::typedCollective(Operation *op) {
  auto collective = dyn_cast<CollectiveOpInterface>(op);
  if (!collective || op->getNumOperands() == 0)
    return nullptr;
  // A start has no rule of its own: its future holds what its synchronous
  // form gives (inferCollectiveVariance applies that form's rule).
  if (!collective.getVarianceRule() && !isCollectiveStart(op))
    return nullptr;
  return collective;
}

CollectiveOpInterface mlir::spmd::axisQuery(Operation *op) {
  if (!isAxisQuery(op) || !cast<CollectiveOpInterface>(op).getVarianceRule())
    return nullptr;
  return cast<CollectiveOpInterface>(op);
}

FailureOr<AxisMask> mlir::spmd::typeCollective(const AxisMasks &masks,
                                               Operation *op, AxisMask in,
                                               AxisMask &lift,
                                               std::string &reason) {
  FailureOr<SmallVector<StringAttr>> direct =
      inferCollectiveVariance(op, masks.axesOf(in), reason);
  lift = in;
  if (succeeded(direct))
    return masks.maskOf(*direct);
  AxisMask axes = masks.maskOf(cast<CollectiveOpInterface>(op).getAxisList());
  std::string ignored;
  FailureOr<SmallVector<StringAttr>> lifted =
      inferCollectiveVariance(op, masks.axesOf(in | axes), ignored);
  if (failed(lifted))
    return failure();
  lift = in | axes;
  return masks.maskOf(*lifted);
}

//===----------------------------------------------------------------------===//
// The lattice and the analyses
//===----------------------------------------------------------------------===//

namespace {

/// The axes a value may vary over; empty until the solver reaches the
/// value's definition.
struct Variance {
  std::optional<AxisMask> mask;

  static Variance join(const Variance &a, const Variance &b) {
    if (!a.mask)
      return b;
    if (!b.mask)
      return a;
    return Variance{*a.mask | *b.mask};
  }
  bool operator==(const Variance &other) const { return mask == other.mask; }
  void print(raw_ostream &os) const {
    if (mask)
      os << "mask " << *mask;
    else
      os << "<uninitialized>";
  }
};

using VarianceLattice = Lattice<Variance>;
using ConstantLattice = Lattice<ConstantValue>;

/// Every value's constant is unknown, so DeadCodeAnalysis marks every region
/// and block reachable: typing must cover code no constant shows dead.
class NoConstants : public SparseForwardDataFlowAnalysis<ConstantLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  LogicalResult visitOperation(Operation *, ArrayRef<const ConstantLattice *>,
                               ArrayRef<ConstantLattice *> results) override {
    setAllToEntryStates(results);
    return success();
  }
  void setToEntryState(ConstantLattice *lattice) override {
    propagateIfChanged(lattice,
                       lattice->join(ConstantValue::getUnknownConstant()));
  }
};

class VarianceAnalysis : public SparseForwardDataFlowAnalysis<VarianceLattice> {
public:
  VarianceAnalysis(DataFlowSolver &solver, Operation *root,
                   const AxisMasks &masks, AxisMask manual,
                   const DenseMap<Value, AxisMask> &entry)
      : SparseForwardDataFlowAnalysis(solver), root(root), masks(masks),
        manual(manual), entry(entry) {}

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const VarianceLattice *> operands,
                               ArrayRef<VarianceLattice *> results) override;
  void visitNonControlFlowArguments(Operation *op,
                                    const RegionSuccessor &successor,
                                    ArrayRef<VarianceLattice *> argLattices,
                                    unsigned firstIndex) override;
  void setToEntryState(VarianceLattice *lattice) override;

private:
  void
  visitRegionSuccessors(ProgramPoint *point, RegionBranchOpInterface branch,
                        RegionSuccessor successor,
                        ArrayRef<AbstractSparseLattice *> lattices) override;

  void joinMask(AbstractSparseLattice *lattice, AxisMask m) {
    auto *typed = static_cast<VarianceLattice *>(lattice);
    propagateIfChanged(typed, typed->join(Variance{m}));
  }
  /// The variance of `v`, read at `point` (which is revisited when it
  /// grows); 0 while the solver has not reached `v`.
  AxisMask maskAt(ProgramPoint *point, Value v) {
    return getLatticeElementFor(point, v)->getValue().mask.value_or(0);
  }
  /// The manual axes in effect in `scope`'s regions.
  AxisMask manualFrom(Operation *scope) const;
  /// What the values of `op`'s regions that no successor operand gives
  /// hold (an scf.for's induction variable, linalg's scalars).
  AxisMask unforwardedMask(ProgramPoint *point, Operation *op);
  /// The variance of `op`'s operands outside the `forwarded` ranges.
  AxisMask maskOutside(ProgramPoint *point, Operation *op,
                       ArrayRef<OperandRange> forwarded);
  /// Operands of `branch` that no entry successor receives: they decide
  /// which region runs or how often.
  AxisMask controlMask(ProgramPoint *point, RegionBranchOpInterface branch);
  /// What `op`'s regions read from outside, and the device position any
  /// axis query inside asks for.
  AxisMask capturedMask(ProgramPoint *point, Operation *op);

  Operation *root;
  const AxisMasks &masks;
  AxisMask manual;
  const DenseMap<Value, AxisMask> &entry;
};

} // namespace

AxisMask VarianceAnalysis::manualFrom(Operation *scope) const {
  AxisMask m = manual;
  for (Operation *parent = scope; parent && parent != root;
       parent = parent->getParentOp())
    if (auto map = dyn_cast<ShardMapOp>(parent))
      m |= masks.maskOf(map.getOwnManualAxes());
  return m;
}

void VarianceAnalysis::setToEntryState(VarianceLattice *lattice) {
  auto v = cast<Value>(lattice->getAnchor());
  auto it = entry.find(v);
  if (it != entry.end())
    return joinMask(lattice, it->second);
  // Unknown: varies over every axis manual where it is defined.
  joinMask(lattice, manualFrom(v.getParentBlock()->getParentOp()));
}

AxisMask VarianceAnalysis::capturedMask(ProgramPoint *point, Operation *op) {
  AxisMask m = 0;
  op->walk([&](Operation *inner) {
    if (inner == op)
      return;
    if (CollectiveOpInterface query = axisQuery(inner))
      m |= masks.queryMask(query);
    for (Value operand : inner->getOperands())
      if (!op->isAncestor(operand.getParentRegion()->getParentOp()))
        m |= maskAt(point, operand);
  });
  return m;
}

LogicalResult
VarianceAnalysis::visitOperation(Operation *op,
                                 ArrayRef<const VarianceLattice *> operands,
                                 ArrayRef<VarianceLattice *> results) {
  // Wait for every operand: the rules of collectives are not joins.
  if (llvm::any_of(operands, [](const VarianceLattice *l) {
        return !l->getValue().mask;
      }))
    return success();
  ProgramPoint *point = getProgramPointAfter(op);
  if (auto map = dyn_cast<ShardMapOp>(op)) {
    // A nested shard_map: its results are its yields without its own axes.
    AxisMask own = masks.maskOf(map.getOwnManualAxes());
    Operation *yield = map.getBodyBlock().getTerminator();
    for (auto [lattice, value] : llvm::zip(results, yield->getOperands()))
      joinMask(lattice, maskAt(point, value) & ~own);
    return success();
  }
  if (CollectiveOpInterface query = axisQuery(op)) {
    joinMask(results[0], masks.queryMask(query));
    return success();
  }
  if (CollectiveOpInterface collective = typedCollective(op)) {
    AxisMask in = *operands[0]->getValue().mask, lift;
    std::string reason;
    FailureOr<AxisMask> result = typeCollective(masks, op, in, lift, reason);
    // An ill-typed collective is reported by the rewrite; go on as if the
    // result varied over everything it could.
    joinMask(results[0], succeeded(result)
                             ? *result
                             : in | masks.maskOf(collective.getAxisList()));
    return success();
  }
  // Everything else: the union of the operands (and of what its regions
  // capture).
  AxisMask m = 0;
  for (const VarianceLattice *operand : operands)
    m |= *operand->getValue().mask;
  if (op->getNumRegions())
    m |= capturedMask(point, op);
  for (VarianceLattice *result : results)
    joinMask(result, m);
  return success();
}

AxisMask VarianceAnalysis::unforwardedMask(ProgramPoint *point, Operation *op) {
  // The induction variable: lb + k * step, whichever iterations run.
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return maskAt(point, loop.getLowerBound()) | maskAt(point, loop.getStep());
  // Otherwise they can only come from the op's operands.
  AxisMask m = 0;
  for (Value operand : op->getOperands())
    m |= maskAt(point, operand);
  return m;
}

void VarianceAnalysis::visitNonControlFlowArguments(
    Operation *op, const RegionSuccessor &successor,
    ArrayRef<VarianceLattice *> argLattices, unsigned firstIndex) {
  Region *region = successor.getSuccessor();
  ProgramPoint *point = region ? getProgramPointBefore(&region->front())
                               : getProgramPointAfter(op);
  if (op == root && region) {
    // The caller knows the root's body arguments.
    for (auto [lattice, arg] : llvm::zip(argLattices, region->getArguments()))
      joinMask(lattice, entry.lookup(arg));
    return;
  }
  if (auto map = dyn_cast<ShardMapOp>(op); map && region) {
    // A nested shard_map's body: its inputs' variance over the axes manual
    // outside, and the axes its in_specs split them over.
    AxisMask outer = manualFrom(map->getParentOp());
    for (auto [k, lattice] : llvm::enumerate(argLattices)) {
      auto spec = cast<trellis::SpecAttr>(map.getInSpecs()[k]);
      joinMask(lattice, (maskAt(point, map.getInputs()[k]) & outer) |
                            masks.maskOf(spec.getAllAxes()));
    }
    return;
  }
  AxisMask m = unforwardedMask(point, op);
  size_t forwarded = successor.getSuccessorInputs().size();
  for (auto [k, lattice] : llvm::enumerate(argLattices))
    if (k < firstIndex || k >= firstIndex + forwarded)
      joinMask(lattice, m);
}

AxisMask VarianceAnalysis::maskOutside(ProgramPoint *point, Operation *op,
                                       ArrayRef<OperandRange> forwarded) {
  llvm::SmallBitVector inside(op->getNumOperands());
  for (OperandRange operands : forwarded)
    if (!operands.empty())
      inside.set(operands.getBeginOperandIndex(),
                 operands.getBeginOperandIndex() + operands.size());
  AxisMask m = 0;
  for (OpOperand &operand : op->getOpOperands())
    if (!inside.test(operand.getOperandNumber()))
      m |= maskAt(point, operand.get());
  return m;
}

AxisMask VarianceAnalysis::controlMask(ProgramPoint *point,
                                       RegionBranchOpInterface branch) {
  SmallVector<RegionSuccessor> successors;
  branch.getSuccessorRegions(RegionBranchPoint::parent(), successors);
  SmallVector<OperandRange> forwarded;
  for (const RegionSuccessor &successor : successors)
    forwarded.push_back(branch.getEntrySuccessorOperands(successor));
  return maskOutside(point, branch, forwarded);
}

void VarianceAnalysis::visitRegionSuccessors(
    ProgramPoint *point, RegionBranchOpInterface branch,
    RegionSuccessor successor, ArrayRef<AbstractSparseLattice *> lattices) {
  const auto *predecessors = getOrCreateFor<PredecessorState>(point, point);
  if (!predecessors->allPredecessorsKnown())
    return AbstractSparseForwardDataFlowAnalysis::setAllToEntryStates(lattices);
  // Which of `lattices` a successor input is.
  auto indexOf = [](Value input) -> unsigned {
    if (auto arg = dyn_cast<BlockArgument>(input))
      return arg.getArgNumber();
    return cast<OpResult>(input).getResultNumber();
  };
  AxisMask control = controlMask(point, branch);
  // Inside a region of several blocks, branches (cf.cond_br) steer which
  // value is yielded, and the framework joins only what they pass. Take
  // everything the regions read as steering: their captured values and
  // axis queries (the rewrite refuses such regions when they hold
  // collectives or tensors, so those are all their sources of variance).
  if (llvm::any_of(branch->getRegions(),
                   [](Region &region) { return !region.hasOneBlock(); }))
    control |= capturedMask(point, branch);
  llvm::SmallBitVector reached(lattices.size());
  for (Operation *predecessor : predecessors->getKnownPredecessors()) {
    std::optional<OperandRange> operands;
    if (predecessor == branch.getOperation()) {
      operands = branch.getEntrySuccessorOperands(successor);
    } else if (auto terminator =
                   dyn_cast<RegionBranchTerminatorOpInterface>(predecessor)) {
      operands = terminator.getSuccessorOperands(successor);
      // The terminator's other operands (scf.condition's flag) decide
      // whether control reaches this successor.
      control |= maskOutside(point, predecessor, *operands);
    }
    if (!operands)
      return AbstractSparseForwardDataFlowAnalysis::setAllToEntryStates(
          lattices);
    ValueRange inputs = predecessors->getSuccessorInputs(predecessor);
    if (inputs.size() != operands->size())
      return AbstractSparseForwardDataFlowAnalysis::setAllToEntryStates(
          lattices);
    for (auto [input, operand] : llvm::zip(inputs, *operands)) {
      unsigned k = indexOf(input);
      if (k >= lattices.size())
        return AbstractSparseForwardDataFlowAnalysis::setAllToEntryStates(
            lattices);
      reached.set(k);
      join(lattices[k], *getLatticeElementFor(point, operand));
    }
  }
  for (auto [k, lattice] : llvm::enumerate(lattices))
    if (reached.test(k))
      joinMask(lattice, control);
  if (reached.all())
    return;
  // The successor's values no predecessor forwards.
  AxisMask m = unforwardedMask(point, branch);
  for (auto [k, lattice] : llvm::enumerate(lattices))
    if (!reached.test(k))
      joinMask(lattice, m);
}

DenseMap<Value, AxisMask>
mlir::spmd::analyzeVariance(Operation *root, const AxisMasks &masks,
                            AxisMask manual,
                            const DenseMap<Value, AxisMask> &entry) {
  DataFlowSolver solver;
  solver.load<DeadCodeAnalysis>();
  solver.load<NoConstants>();
  solver.load<VarianceAnalysis>(root, masks, manual, entry);
  // Values `root` reads from outside are fixed by the caller.
  for (auto [value, mask] : entry)
    if (!root->isAncestor(value.getParentRegion()->getParentOp()))
      (void)solver.getOrCreateState<VarianceLattice>(value)->join(
          Variance{mask});
  DenseMap<Value, AxisMask> result;
  if (failed(solver.initializeAndRun(root)))
    return result;
  auto record = [&](Value v) {
    const VarianceLattice *lattice = solver.lookupState<VarianceLattice>(v);
    // Never reached (cannot happen with every block live): assume the
    // worst, every axis of the mesh, rather than invariant.
    result[v] = lattice && lattice->getValue().mask ? *lattice->getValue().mask
                                                    : masks.all();
  };
  root->walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          record(arg);
    if (op != root)
      for (Value v : op->getResults())
        record(v);
  });
  return result;
}
