//===- TransposeOpInterfaceTest.cpp - Upstream ops' transpose rules -------===//
//
// The TransposeOpInterface models through the interface alone, on a
// context built from registerTrellisDialects (no pass involved): which
// upstream ops have a rule, and what the rules of add, mul, div and neg
// hand to a recording TransposeState (which operand gets which
// contribution, and the errors on non-linear uses).
//
//===----------------------------------------------------------------------===//

#include "dialects/spmd/IR/TransposeOpInterface.h"
#include "trellis/Pipelines/Registration.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::spmd;

namespace {

constexpr StringLiteral kProgram = R"mlir(
  func.func @f(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %w: tensor<4x8xf32>,
               %t: tensor<8x4xf32>) {
    %add = arith.addf %x, %y : tensor<4x8xf32>
    %sub = arith.subf %x, %y : tensor<4x8xf32>
    %neg = arith.negf %x : tensor<4x8xf32>
    %mul = arith.mulf %w, %x : tensor<4x8xf32>
    %div = arith.divf %x, %w : tensor<4x8xf32>
    %sq = arith.mulf %x, %y : tensor<4x8xf32>
    %exp = math.exp %x : tensor<4x8xf32>
    %slice = tensor.extract_slice %x[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
    %cat = tensor.concat dim(0) %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %init = tensor.empty() : tensor<8x4xf32>
    %tr = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%init : tensor<8x4xf32>) permutation = [1, 0]
    %acc = tensor.empty() : tensor<4x4xf32>
    %mm = linalg.matmul ins(%x, %t : tensor<4x8xf32>, tensor<8x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
    return
  }
)mlir";

/// A TransposeState that records what a rule hands it. `linear` are the
/// linear values; forward copies are the values themselves.
struct RecordingState : TransposeState {
  llvm::SmallPtrSet<Value, 4> linear;
  /// (primal, contribution) in the order the rule accumulated them.
  SmallVector<std::pair<Value, Value>> accumulated;

  bool isLinear(Value v) const override { return linear.contains(v); }
  Value forward(Value v) override { return v; }
  SmallVector<OpFoldResult> forward(ArrayRef<OpFoldResult> list) override {
    return llvm::to_vector(list);
  }
  Value cotangent(Value) override { return nullptr; }
  void setCotangent(Value primal, Value c) override {
    accumulated.push_back({primal, c});
  }
  void accumulate(OpBuilder &, Location, Value primal,
                  Value contribution) override {
    accumulated.push_back({primal, contribution});
  }
  LogicalResult requireZero(Operation *op, unsigned) override {
    return op->emitOpError("test state: not zero");
  }
};

class TransposeOpInterfaceTest : public ::testing::Test {
protected:
  void SetUp() override {
    DialectRegistry registry;
    trellis::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    module = parseSourceString<ModuleOp>(kProgram, &context);
    ASSERT_TRUE(module);
    func = *module->getOps<func::FuncOp>().begin();
    for (Operation &op : func.getBody().front())
      if (op.getNumResults() == 1)
        byName[op.getName().getStringRef()].push_back(&op);
  }

  Operation *first(StringRef name) {
    auto it = byName.find(name);
    return it == byName.end() ? nullptr : it->second.front();
  }
  Value arg(unsigned i) { return func.getArgument(i); }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  llvm::StringMap<SmallVector<Operation *>> byName;
};

TEST_F(TransposeOpInterfaceTest, UpstreamOpsHaveRulesFromTheRegistry) {
  for (StringRef name :
       {"arith.addf", "arith.subf", "arith.negf", "arith.mulf", "arith.divf",
        "tensor.extract_slice", "tensor.concat", "linalg.transpose"}) {
    Operation *op = first(name);
    ASSERT_NE(op, nullptr) << name.str();
    EXPECT_TRUE(isa<TransposeOpInterface>(op)) << name.str();
  }
  // Non-linear ops have no rule; contractions are the pass's own case.
  EXPECT_FALSE(isa<TransposeOpInterface>(first("math.exp")));
  EXPECT_FALSE(isa<TransposeOpInterface>(first("linalg.matmul")));
  EXPECT_FALSE(isa<TransposeOpInterface>(first("tensor.empty")));
}

TEST_F(TransposeOpInterfaceTest, AddGivesTheCotangentToBothLinearOperands) {
  RecordingState state;
  state.linear.insert(arg(0));
  state.linear.insert(arg(1));
  Operation *add = first("arith.addf");
  OpBuilder b(add);
  Value c = arg(2); // stands for the cotangent
  ASSERT_TRUE(
      succeeded(cast<TransposeOpInterface>(add).transpose(state, c, b)));
  ASSERT_EQ(state.accumulated.size(), 2u);
  EXPECT_EQ(state.accumulated[0], std::make_pair(arg(0), c));
  EXPECT_EQ(state.accumulated[1], std::make_pair(arg(1), c));
}

TEST_F(TransposeOpInterfaceTest, SubNegatesTheRightOperandsCotangent) {
  RecordingState state;
  state.linear.insert(arg(0));
  state.linear.insert(arg(1));
  Operation *sub = first("arith.subf");
  OpBuilder b(sub);
  Value c = arg(2);
  ASSERT_TRUE(
      succeeded(cast<TransposeOpInterface>(sub).transpose(state, c, b)));
  ASSERT_EQ(state.accumulated.size(), 2u);
  EXPECT_EQ(state.accumulated[0], std::make_pair(arg(0), c));
  EXPECT_EQ(state.accumulated[1].first, arg(1));
  auto neg = state.accumulated[1].second.getDefiningOp<arith::NegFOp>();
  ASSERT_TRUE(neg);
  EXPECT_EQ(neg.getOperand(), c);
}

TEST_F(TransposeOpInterfaceTest, MulScalesByTheNonLinearFactor) {
  RecordingState state;
  state.linear.insert(arg(0)); // %mul = mulf %w, %x: only %x is linear
  Operation *mul = first("arith.mulf");
  OpBuilder b(mul);
  Value c = arg(1); // %y stands for the cotangent here
  ASSERT_TRUE(
      succeeded(cast<TransposeOpInterface>(mul).transpose(state, c, b)));
  ASSERT_EQ(state.accumulated.size(), 1u);
  EXPECT_EQ(state.accumulated[0].first, arg(0));
  auto scaled = state.accumulated[0].second.getDefiningOp<arith::MulFOp>();
  ASSERT_TRUE(scaled);
  EXPECT_EQ(scaled.getLhs(), c);
  EXPECT_EQ(scaled.getRhs(), arg(2)); // the forward copy of %w
}

TEST_F(TransposeOpInterfaceTest, DivDividesByTheForwardDenominator) {
  RecordingState state;
  state.linear.insert(arg(0));
  Operation *div = first("arith.divf");
  OpBuilder b(div);
  Value c = arg(1);
  ASSERT_TRUE(
      succeeded(cast<TransposeOpInterface>(div).transpose(state, c, b)));
  ASSERT_EQ(state.accumulated.size(), 1u);
  EXPECT_EQ(state.accumulated[0].first, arg(0));
  auto quotient = state.accumulated[0].second.getDefiningOp<arith::DivFOp>();
  ASSERT_TRUE(quotient);
  EXPECT_EQ(quotient.getLhs(), c);
  EXPECT_EQ(quotient.getRhs(), arg(2));
}

TEST_F(TransposeOpInterfaceTest, NonLinearUsesAreLocatedErrors) {
  std::string messages;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    messages += diag.str() + "\n";
    return success();
  });
  // %sq = mulf %x, %y with both linear: not linear.
  RecordingState both;
  both.linear.insert(arg(0));
  both.linear.insert(arg(1));
  Operation *sq = byName["arith.mulf"][1];
  OpBuilder b(sq);
  EXPECT_TRUE(
      failed(cast<TransposeOpInterface>(sq).transpose(both, arg(2), b)));
  // %div = divf %x, %w with the denominator linear.
  RecordingState denominator;
  denominator.linear.insert(arg(2));
  Operation *div = first("arith.divf");
  EXPECT_TRUE(failed(
      cast<TransposeOpInterface>(div).transpose(denominator, arg(1), b)));
  EXPECT_NE(messages.find("multiplies two linear values"), std::string::npos)
      << messages;
  EXPECT_NE(messages.find("divides by a linear value"), std::string::npos)
      << messages;
  EXPECT_TRUE(both.accumulated.empty());
  EXPECT_TRUE(denominator.accumulated.empty());
}

} // namespace
