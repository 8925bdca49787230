//===- CommReport.cpp - Collectives and bytes sent per device -------------===//
//
// Prints, per function with per-device code, every collective with its axes
// and the bytes one device sends under ring algorithms, and the total.
//
//===----------------------------------------------------------------------===//

#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "trellis/Analysis/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISCOMMREPORT
#include "trellis/Analysis/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::spmd;

namespace {

/// JAX notation for tensors; futures of asynchronous collectives show
/// the value they deliver.
std::string typeText(Type type) {
  if (auto future = dyn_cast<FutureType>(type))
    return "future<" + trellis::formatJaxType(future.getValueType()) + ">";
  return trellis::formatJaxType(type);
}

/// A loop bound known before running: a constant, or what a pure op folds
/// to given known operands (arithmetic on constants and axis sizes, which
/// fold to constants in manual code). A copy of the op is folded, placed
/// beside it (folds may look at where the op is) and erased again, so that
/// the report leaves the IR as it was.
std::optional<int64_t> knownIndex(Value v, unsigned depth = 0) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  Operation *def = v.getDefiningOp();
  if (!def || depth > 32 || def->getNumRegions() || !isPure(def))
    return std::nullopt;
  SmallVector<Attribute> operands;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> known = knownIndex(operand, depth + 1);
    if (!known || !operand.getType().isIntOrIndex())
      return std::nullopt;
    operands.push_back(IntegerAttr::get(operand.getType(), *known));
  }
  OpBuilder builder(def);
  Operation *copy = builder.clone(*def);
  SmallVector<OpFoldResult> results;
  std::optional<int64_t> folded;
  if (succeeded(copy->fold(operands, results)) &&
      results.size() == def->getNumResults()) {
    OpFoldResult result = results[cast<OpResult>(v).getResultNumber()];
    if (auto attr =
            dyn_cast_if_present<IntegerAttr>(dyn_cast<Attribute>(result)))
      folded = attr.getValue().getSExtValue();
    else if (auto same = dyn_cast<Value>(result);
             same && same.getDefiningOp() != copy)
      folded = knownIndex(same, depth + 1); // x + 0, min(x, x), ...
  }
  copy->erase();
  return folded;
}

/// How many times `op` runs per call of its function: the product of the
/// trip counts of the enclosing scf.for loops with known bounds; `exact` is
/// false when some enclosing loop's count is unknown.
int64_t timesRun(Operation *op, bool &exact) {
  exact = true;
  int64_t times = 1;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
      auto lb = knownIndex(forOp.getLowerBound());
      auto ub = knownIndex(forOp.getUpperBound());
      auto step = knownIndex(forOp.getStep());
      if (lb && ub && step && *step > 0) {
        int64_t n = *ub - *lb;
        times *= n <= 0 ? 0 : (n + *step - 1) / *step;
        continue;
      }
      exact = false;
    } else if (isa<LoopLikeOpInterface>(parent)) {
      exact = false;
    }
  }
  return times;
}

std::string axesText(CollectiveOpInterface op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(op.getAxisList(), os, [&](StringAttr axis) {
    os << '"' << axis.getValue() << '"';
  });
  os << ']';
  return text;
}

struct CommReportPass
    : mlir::trellis::impl::TrellisCommReportBase<CommReportPass> {
  using Base::Base;

  void runOnOperation() override {
    std::string error;
    auto out = openOutputFile(outputFile, &error);
    if (!out) {
      getOperation().emitError()
          << "cannot open '" << outputFile << "': " << error;
      return signalPassFailure();
    }
    getOperation().walk([&](func::FuncOp func) { report(func, out->os()); });
    out->keep();
    markAllAnalysesPreserved();
  }

  void report(func::FuncOp func, raw_ostream &os) {
    // The mesh: a device function's, or its shard_maps'.
    trellis::MeshOp mesh;
    if (auto ref =
            func->getAttrOfType<FlatSymbolRefAttr>(SpmdDialect::kMeshAttrName))
      mesh = trellis::lookupMesh(func, ref);
    bool perDevice = static_cast<bool>(mesh);
    func.walk([&](ShardMapOp map) {
      perDevice = true;
      if (!mesh)
        mesh = map.getMeshOp();
    });
    if (!perDevice)
      return;
    os << "// comm @" << func.getSymName();
    if (mesh)
      os << " (mesh @" << mesh.getSymName() << ", " << mesh.getNumDevices()
         << " devices)";
    os << "\n";
    int64_t count = 0, total = 0;
    bool unknown = false, inexact = false;
    // Collectives that move data; an asynchronous ppermute sends at its
    // start (or forward), and its wait is no collective.
    func.walk([&](CollectiveOpInterface op) {
      if (!op.communicates())
        return;
      int64_t bytes = op.getBytesSentPerDevice();
      bool exact;
      int64_t times = timesRun(op, exact);
      ++count;
      os << "//   " << op->getLoc() << " " << op->getName() << " over "
         << axesText(op) << ": " << typeText(op->getOperand(0).getType())
         << " -> " << typeText(op->getResult(0).getType()) << ", ";
      if (bytes < 0) {
        os << "? B";
        unknown = true;
      } else {
        os << bytes << " B";
        total += bytes * times;
      }
      if (times != 1)
        os << " x " << times;
      if (!exact) {
        os << " per iteration of a loop of unknown trip count";
        inexact = true;
      }
      os << "\n";
    });
    os << "//   total: " << count
       << (count == 1 ? " collective, " : " collectives, ") << total
       << " B per device";
    if (unknown)
      os << " (plus collectives of dynamic shape)";
    if (inexact)
      os << " (loops of unknown trip count counted once)";
    os << "\n";
  }
};

} // namespace
