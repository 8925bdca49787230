//===- CollectiveOpInterfaceTest.cpp - What each collective answers -------===//
//
// Every spmd collective through CollectiveOpInterface alone: its axes,
// group size, variance rule, reduction, whether it moves data and the bytes
// one device sends. Expected values are worked out by hand from the shapes
// below (f32, a 4x8 block: 128 bytes; axis "i" of size 4, "j" of size 2).
//
//===----------------------------------------------------------------------===//

#include "dialects/spmd/IR/SpmdOps.h"
#include "trellis/Pipelines/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::spmd;

namespace {

using Need = VarianceRule::Need;
using Effect = VarianceRule::Effect;

constexpr StringLiteral kProgram = R"mlir(
  trellis.mesh @mesh = <["i"=4, "j"=2]>
  func.func @f(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
    %r = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}]] out_specs = [[{"i"}, {"j"}]]
        (%x) : (tensor<16x16xf32>) -> tensor<16x16xf32> {
    ^bb0(%b: tensor<4x8xf32>):
      %psum = spmd.psum %b over ["i"] {name = "psum"} : tensor<4x8xf32>
      %pmax = spmd.pmax %b over ["i"] {name = "pmax"} : tensor<4x8xf32>
      %pmin = spmd.pmin %b over ["i"] {name = "pmin"} : tensor<4x8xf32>
      %pmean = spmd.pmean %b over ["i", "j"] {name = "pmean"} : tensor<4x8xf32>
      %pvary = spmd.pvary %b over ["j"] {name = "pvary"} : tensor<4x8xf32>
      %ag = spmd.all_gather %b over ["i"] dim 0 tiled {name = "all_gather"} : tensor<4x8xf32> -> tensor<16x8xf32>
      %agi = spmd.all_gather_invariant %b over ["i"] dim 0 tiled {name = "all_gather_invariant"} : tensor<4x8xf32> -> tensor<16x8xf32>
      %rs = spmd.psum_scatter %b over ["i"] dim 0 tiled {name = "psum_scatter"} : tensor<4x8xf32> -> tensor<1x8xf32>
      %ps = spmd.pscatter %b over ["i"] dim 0 tiled {name = "pscatter"} : tensor<4x8xf32> -> tensor<1x8xf32>
      %a2a = spmd.all_to_all %b over ["i"] split 0 concat 1 {name = "all_to_all"} : tensor<4x8xf32> -> tensor<1x32xf32>
      %pp = spmd.ppermute %b over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] {name = "ppermute"} : tensor<4x8xf32>
      %self = spmd.ppermute %b over ["i"] pairs [[0, 0], [1, 1]] {name = "ppermute_self"} : tensor<4x8xf32>
      %f = spmd.ppermute_start %b over ["j"] pairs [[0, 1], [1, 0]] {name = "ppermute_start"} : tensor<4x8xf32> -> !spmd.future<tensor<4x8xf32>>
      %w = spmd.ppermute_wait %f : !spmd.future<tensor<4x8xf32>>
      %idx = spmd.axis_index over ["i", "j"] {name = "axis_index"} : index
      %size = spmd.axis_size over ["j"] {name = "axis_size"} : index
      spmd.yield %b : tensor<4x8xf32>
    }
    return %r : tensor<16x16xf32>
  }
)mlir";

struct Expected {
  const char *name;
  std::vector<const char *> axes;
  int64_t groupSize;
  std::optional<VarianceRule> rule;
  std::optional<ReductionKind> reduction;
  bool communicates;
  int64_t bytes;
  bool axisQuery;
};

// Ring all-reduce: 2 * 128 * (n-1)/n; gathers: 128 * (n-1); reduce-scatter
// and all_to_all: 128 * (n-1)/n; a ppermute sends its 128 bytes once.
// clang-format off
const Expected kExpected[] = {
    {"psum", {"i"}, 4, VarianceRule{Need::Varying, Effect::Remove},
     ReductionKind::Sum, true, 192, false},
    {"pmax", {"i"}, 4, VarianceRule{Need::Varying, Effect::Remove},
     ReductionKind::Max, true, 192, false},
    {"pmin", {"i"}, 4, VarianceRule{Need::Varying, Effect::Remove},
     ReductionKind::Min, true, 192, false},
    {"pmean", {"i", "j"}, 8, VarianceRule{Need::Varying, Effect::Remove},
     ReductionKind::Mean, true, 224, false},
    {"pvary", {"j"}, 2, VarianceRule{Need::Invariant, Effect::Add},
     std::nullopt, false, 0, false},
    {"all_gather", {"i"}, 4, VarianceRule{Need::Varying, Effect::Keep},
     std::nullopt, true, 384, false},
    {"all_gather_invariant", {"i"}, 4,
     VarianceRule{Need::Varying, Effect::Remove}, std::nullopt, true, 384,
     false},
    {"psum_scatter", {"i"}, 4, VarianceRule{Need::Varying, Effect::Keep},
     ReductionKind::Sum, true, 96, false},
    {"pscatter", {"i"}, 4, VarianceRule{Need::Invariant, Effect::Add},
     std::nullopt, false, 0, false},
    {"all_to_all", {"i"}, 4, VarianceRule{Need::Varying, Effect::Keep},
     std::nullopt, true, 96, false},
    {"ppermute", {"i"}, 4, VarianceRule{Need::Varying, Effect::Keep},
     std::nullopt, true, 128, false},
    {"ppermute_self", {"i"}, 4, VarianceRule{Need::Varying, Effect::Keep},
     std::nullopt, true, 0, false},
    {"ppermute_start", {"j"}, 2, std::nullopt, std::nullopt, true, 128, false},
    {"axis_index", {"i", "j"}, 8, VarianceRule{Need::Nothing, Effect::Add},
     std::nullopt, false, 0, true},
    {"axis_size", {"j"}, 2, VarianceRule{Need::Nothing, Effect::Keep},
     std::nullopt, false, 0, true},
};
// clang-format on

class CollectiveOpInterfaceTest : public ::testing::Test {
protected:
  CollectiveOpInterfaceTest() {
    DialectRegistry registry;
    trellis::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(kProgram, &context);
  }

  /// The collective tagged `{name = ...}`.
  CollectiveOpInterface find(StringRef name) {
    CollectiveOpInterface found;
    module->walk([&](CollectiveOpInterface op) {
      if (auto tag = op->getAttrOfType<StringAttr>("name"))
        if (tag.getValue() == name)
          found = op;
    });
    return found;
  }

  SmallVector<StringAttr> axes(std::initializer_list<StringRef> names) {
    return llvm::map_to_vector(
        names, [&](StringRef n) { return StringAttr::get(&context, n); });
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(CollectiveOpInterfaceTest, EveryCollectiveAnswers) {
  ASSERT_TRUE(module);
  int seen = 0;
  module->walk([&](CollectiveOpInterface) { ++seen; });
  EXPECT_EQ(seen, static_cast<int>(std::size(kExpected)));
  for (const Expected &e : kExpected) {
    SCOPED_TRACE(e.name);
    CollectiveOpInterface op = find(e.name);
    ASSERT_TRUE(op);
    SmallVector<std::string> names = llvm::map_to_vector(
        op.getAxisList(), [](StringAttr a) { return a.getValue().str(); });
    EXPECT_EQ(names, SmallVector<std::string>(e.axes.begin(), e.axes.end()));
    EXPECT_EQ(op.getGroupSize(), e.groupSize);
    std::optional<VarianceRule> rule = op.getVarianceRule();
    ASSERT_EQ(rule.has_value(), e.rule.has_value());
    if (rule) {
      EXPECT_EQ(rule->need, e.rule->need);
      EXPECT_EQ(rule->effect, e.rule->effect);
    }
    EXPECT_EQ(op.getReduction(), e.reduction);
    EXPECT_EQ(op.communicates(), e.communicates);
    EXPECT_EQ(op.getBytesSentPerDevice(), e.bytes);
    EXPECT_EQ(isAxisQuery(op), e.axisQuery);
  }
  // The wait is not a collective of its own: its start sent the data.
  module->walk([&](PpermuteWaitOp wait) {
    EXPECT_FALSE(isa<CollectiveOpInterface>(wait.getOperation()));
  });
}

TEST_F(CollectiveOpInterfaceTest, VarianceRulesApply) {
  ASSERT_TRUE(module);
  std::string reason;
  // A reduction removes its axes and needs them varying.
  std::optional<VarianceRule> psum = find("psum").getVarianceRule();
  FailureOr<SmallVector<StringAttr>> out =
      psum->apply(axes({"i", "j"}), axes({"i"}), reason);
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ(*out, axes({"j"}));
  EXPECT_TRUE(failed(psum->apply(axes({"j"}), axes({"i"}), reason)));
  EXPECT_NE(reason.find("varies over mesh axis \"i\""), std::string::npos);
  // pvary adds its axes and needs them invariant.
  std::optional<VarianceRule> pvary = find("pvary").getVarianceRule();
  out = pvary->apply(axes({"i"}), axes({"j"}), reason);
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ(*out, axes({"i", "j"}));
  EXPECT_TRUE(failed(pvary->apply(axes({"j"}), axes({"j"}), reason)));
  EXPECT_NE(reason.find("already varies"), std::string::npos);
  // A gather keeps the operand's variance.
  out = find("all_gather")
            .getVarianceRule()
            ->apply(axes({"i"}), axes({"i"}), reason);
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ(*out, axes({"i"}));
  // axis_index varies over its axes from nothing; axis_size is invariant.
  out =
      find("axis_index").getVarianceRule()->apply({}, axes({"i", "j"}), reason);
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ(*out, axes({"i", "j"}));
  out = find("axis_size").getVarianceRule()->apply({}, axes({"j"}), reason);
  ASSERT_TRUE(succeeded(out));
  EXPECT_TRUE(out->empty());
}

} // namespace
