//===- VarianceInferenceTest.cpp - Device-variance inference --------------===//

#include "trellis/Transforms/Spmd/VarianceInference.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "trellis/Pipelines/Registration.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::spmd;

namespace {

class VarianceInferenceTest : public ::testing::Test {
protected:
  VarianceInferenceTest() {
    DialectRegistry registry;
    trellis::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> parse(StringRef text) {
    return parseSourceString<ModuleOp>(text, &context);
  }

  static std::string print(ModuleOp module) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module.print(os);
    return text;
  }

  MLIRContext context;
};

/// `%x` (varying over "i") times `%w` (replicated), twice: one pvary of
/// `%w`, shared by both uses.
constexpr StringLiteral kProgram = R"mlir(
  trellis.mesh @mesh = <["i"=4, "j"=2]>
  func.func @f(%x: tensor<8xf32>, %w: tensor<2xf32>) -> tensor<8xf32> {
    %r = spmd.shard_map @mesh in_specs = [[{"i"}], []] out_specs = [[{"i"}]]
        (%x, %w) : (tensor<8xf32>, tensor<2xf32>) -> tensor<8xf32> {
    ^bb0(%xb: tensor<2xf32>, %wb: tensor<2xf32>):
      %a = arith.mulf %xb, %wb : tensor<2xf32>
      %b = arith.addf %a, %wb : tensor<2xf32>
      spmd.yield %b : tensor<2xf32>
    }
    return %r : tensor<8xf32>
  }
)mlir";

TEST_F(VarianceInferenceTest, UnionWithOneMemoizedPvary) {
  OwningOpRef<ModuleOp> module = parse(kProgram);
  ASSERT_TRUE(module);
  ASSERT_TRUE(succeeded(inferVarianceIn(*module, VarianceOptions())));
  int pvarys = 0;
  module->walk([&](PvaryOp op) {
    ++pvarys;
    EXPECT_EQ(getVaryEncoding(op.getOperand().getType()).getAxes().size(), 0u);
  });
  EXPECT_EQ(pvarys, 1);
  module->walk([&](arith::AddFOp op) {
    VaryAttr vary = getVaryEncoding(op.getType());
    ASSERT_TRUE(vary);
    ASSERT_EQ(vary.getAxes().size(), 1u);
    EXPECT_EQ(vary.getAxes()[0].getValue(), "i");
  });
}

TEST_F(VarianceInferenceTest, Idempotent) {
  OwningOpRef<ModuleOp> module = parse(kProgram);
  ASSERT_TRUE(module);
  ASSERT_TRUE(succeeded(inferVarianceIn(*module, VarianceOptions())));
  std::string once = print(*module);
  ASSERT_TRUE(succeeded(inferVarianceIn(*module, VarianceOptions())));
  EXPECT_EQ(once, print(*module));
}

TEST_F(VarianceInferenceTest, ExplicitModeReportsTheMissingPvary) {
  OwningOpRef<ModuleOp> module = parse(kProgram);
  ASSERT_TRUE(module);
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  VarianceOptions options;
  options.insertPvary = false;
  EXPECT_TRUE(failed(inferVarianceIn(*module, options)));
  EXPECT_NE(message.find("insert spmd.pvary over [\"i\"]"), std::string::npos)
      << message;
}

TEST_F(VarianceInferenceTest, WithVarianceKeepsOtherEncodings) {
  Builder b(&context);
  auto plain = RankedTensorType::get({2}, b.getF32Type());
  Type typed = withVariance(plain, {b.getStringAttr("i")});
  ASSERT_TRUE(getVaryEncoding(typed));
  EXPECT_EQ(
      withVariance(typed, {}),
      RankedTensorType::get({2}, b.getF32Type(), VaryAttr::get(&context, {})));
  auto other = RankedTensorType::get({2}, b.getF32Type(), b.getStringAttr("x"));
  EXPECT_EQ(withVariance(other, {b.getStringAttr("i")}), Type(other));
  EXPECT_EQ(withVariance(b.getF32Type(), {}), Type(b.getF32Type()));
}

} // namespace
