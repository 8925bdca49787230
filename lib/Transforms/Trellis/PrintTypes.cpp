//===- PrintTypes.cpp - jax.typeof for every value ------------------------===//

#include "dialects/trellis/IR/ShardingUtils.h"
#include "trellis/Transforms/Trellis/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AsmState.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISPRINTTYPES
#include "trellis/Transforms/Trellis/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::trellis;

namespace {
struct PrintTypesPass
    : mlir::trellis::impl::TrellisPrintTypesBase<PrintTypesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    AsmState state(module);
    llvm::raw_ostream &os = llvm::outs();
    auto name = [&](Value v) {
      std::string text;
      llvm::raw_string_ostream s(text);
      v.printAsOperand(s, state);
      return text;
    };
    std::function<void(Region &, unsigned)> printRegion = [&](Region &region,
                                                              unsigned indent) {
      for (Block &block : region) {
        for (BlockArgument arg : block.getArguments())
          os.indent(indent)
              << name(arg) << " : " << formatJaxType(arg.getType()) << "\n";
        for (Operation &op : block) {
          if (op.getNumResults() > 0) {
            os.indent(indent);
            llvm::interleaveComma(op.getResults(), os,
                                  [&](Value v) { os << name(v); });
            os << " = " << op.getName() << " : ";
            llvm::interleaveComma(op.getResultTypes(), os,
                                  [&](Type t) { os << formatJaxType(t); });
            os << "\n";
          }
          // The scalar payloads of structured ops are not arrays.
          if (isa<linalg::LinalgOp>(op))
            continue;
          for (Region &nested : op.getRegions())
            printRegion(nested, indent + 2);
        }
      }
    };
    for (auto func : module.getOps<FunctionOpInterface>()) {
      if (func.isExternal())
        continue;
      os << "@" << func.getName() << "\n";
      printRegion(func.getFunctionBody(), 2);
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
