//===- CollectiveMatmulMicrobatch.cpp - Interleaved FFN row blocks --------===//
//
// Seed 003's microbatching for spmd-collective-matmul: an FFN chain
// (all_gather, matmul, elementwise ops, matmul, psum_scatter) is split into
// row blocks, each block's two matmuls become unrolled rings, and the
// blocks' steps are interleaved so that one block's transfers overlap
// another's compute.
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/Spmd/CollectiveMatmul.h"

#include "dialects/spmd/IR/ManualContext.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

using namespace mlir;

namespace mlir::spmd::collective_matmul {

namespace {

/// An elementwise generic on static 2-D tensors with one input: identity
/// maps, parallel loops, no linalg.index, and no tensor from outside read in
/// its body (a row block would see the whole tensor, or the block in its
/// place).
bool isRowwiseElementwise(linalg::GenericOp generic) {
  if (generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
      generic->getNumResults() != 1 ||
      !isStatic2D(generic->getResult(0).getType()) ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return false;
  if (!llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return false;
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(generic.getRegion(), captured);
  if (llvm::any_of(captured,
                   [](Value v) { return isa<ShapedType>(v.getType()); }))
    return false;
  return !generic.getRegion()
              .walk([](linalg::IndexOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
}

/// Splits a chain into `k` blocks of rows, each a chain of its own on a
/// row slice of the gathered operand, built before the chain's second
/// matmul; their psum_scatter results are stacked into the chain's result.
/// Returns each block's two matmuls. Every op built is tagged by the
/// rewriter's StepTagger as the caller sets it (`setKey(block, local key)`).
class ChainSplitter {
public:
  ChainSplitter(Chain &chain, RewriterBase &b,
                llvm::function_ref<void(int64_t, int64_t)> setKey)
      : chain(chain), b(b), loc(chain.up.getLoc()), setKey(setKey) {}

  SmallVector<std::pair<linalg::MatmulOp, linalg::MatmulOp>>
  split(int64_t k, int64_t middleKey) {
    auto result = cast<RankedTensorType>(chain.scatter.getType());
    int64_t rows = result.getDimSize(0) / k;
    SmallVector<std::pair<linalg::MatmulOp, linalg::MatmulOp>> blocks;
    SmallVector<Value> pieces;
    for (int64_t blk = 0; blk < k; ++blk) {
      setKey(blk, 0);
      OpFoldResult off = b.getIndexAttr(blk * rows);
      Value x = rowSlice(chain.gather.getOperand(), off, rows);
      if (!first)
        first = x.getDefiningOp();
      IRMapping map;
      map.map(chain.gather.getOperand(), x);
      Value gathered = cloneWithRows(chain.gather, map, rows);
      Value up = buildMatmul(b, loc, gathered, chain.up.getInputs()[1],
                             rowInit(chain.up.getOutputs()[0], off, rows));
      setKey(blk, middleKey);
      Value value = up;
      for (linalg::GenericOp generic : chain.middle) {
        map.map(generic.getDpsInputOperand(0)->get(), value);
        map.map(generic.getDpsInitOperand(0)->get(),
                rowInit(generic.getDpsInitOperand(0)->get(), off, rows));
        value = cloneWithRows(generic, map, rows);
      }
      Value down = buildMatmul(b, loc, value, chain.down.getInputs()[1],
                               rowInit(chain.down.getOutputs()[0], off, rows));
      map.map(chain.down->getResult(0), down);
      pieces.push_back(cloneWithRows(chain.scatter, map, rows));
      blocks.push_back({up.getDefiningOp<linalg::MatmulOp>(),
                        down.getDefiningOp<linalg::MatmulOp>()});
    }
    setKey(k, std::numeric_limits<int64_t>::max() / 2);
    Value stacked =
        tensor::EmptyOp::create(b, loc, result.getShape(),
                                result.getElementType(), result.getEncoding());
    for (auto [blk, piece] : llvm::enumerate(pieces))
      stacked = insertAlong(b, loc, piece, stacked, 0,
                            b.getIndexAttr(static_cast<int64_t>(blk) * rows));
    last = stacked.getDefiningOp();
    b.replaceOp(chain.scatter, stacked);
    b.eraseOp(chain.down);
    for (linalg::GenericOp generic : llvm::reverse(chain.middle))
      b.eraseOp(generic);
    b.eraseOp(chain.up);
    b.eraseOp(chain.gather);
    return blocks;
  }

  /// The first and the last op built (the range the blocks' ops stay in).
  Operation *first = nullptr, *last = nullptr;

private:
  Chain &chain;
  RewriterBase &b;
  Location loc;
  llvm::function_ref<void(int64_t, int64_t)> setKey;

  static RankedTensorType withRows(Type type, int64_t rows) {
    return withShape(type, {rows, cast<RankedTensorType>(type).getDimSize(1)});
  }

  Value rowSlice(Value source, OpFoldResult off, int64_t rows) {
    return sliceAlong(b, loc, source, 0, off, rows);
  }

  /// The rows of an init: a new empty tensor or fill for those, else a
  /// slice.
  Value rowInit(Value init, OpFoldResult off, int64_t rows) {
    RankedTensorType type = withRows(init.getType(), rows);
    if (init.getDefiningOp<tensor::EmptyOp>() ||
        init.getDefiningOp<linalg::FillOp>()) {
      Value empty = tensor::EmptyOp::create(
          b, loc, type.getShape(), type.getElementType(), type.getEncoding());
      if (auto fill = init.getDefiningOp<linalg::FillOp>())
        return linalg::FillOp::create(b, loc, fill.getInputs()[0], empty)
            .getResult(0);
      return empty;
    }
    return rowSlice(init, off, rows);
  }

  Value cloneWithRows(Operation *op, IRMapping &map, int64_t rows) {
    Operation *clone = b.clone(*op, map);
    Value result = clone->getResult(0);
    b.modifyOpInPlace(
        clone, [&] { result.setType(withRows(result.getType(), rows)); });
    return result;
  }
};

/// Reorders the ops of `block` from `first` to `last` (inclusive) by key,
/// then by block, later blocks first (so a block's all-gather step comes
/// before the earlier block's step of the same key), then by their order.
/// An op's key is at least that of every op of the range it uses, so the
/// order stays a valid one; untagged ops (constants) go first.
void reorderByKey(RewriterBase &rewriter, Operation *first, Operation *last,
                  const llvm::DenseMap<Operation *, StepTagger::Tag> &tags) {
  struct Entry {
    Operation *op;
    int64_t key, block;
    size_t order;
  };
  SmallVector<Entry> entries;
  llvm::DenseMap<Operation *, size_t> position;
  Operation *anchor = last->getNextNode();
  for (Operation *op = first; op != anchor; op = op->getNextNode()) {
    Entry entry{op, -1, -1, entries.size()};
    if (auto it = tags.find(op); it != tags.end()) {
      entry.key = it->second.key;
      entry.block = it->second.block;
    }
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def)
          continue;
        auto it = position.find(def);
        if (it == position.end())
          continue;
        const Entry &from = entries[it->second];
        if (from.key > entry.key) {
          entry.key = from.key;
          entry.block = from.block;
        }
      }
    });
    position[op] = entries.size();
    entries.push_back(entry);
  }
  llvm::sort(entries, [](const Entry &a, const Entry &b) {
    if (a.key != b.key)
      return a.key < b.key;
    if (a.block != b.block)
      return a.block > b.block;
    return a.order < b.order;
  });
  for (const Entry &entry : entries)
    rewriter.moveOpBefore(entry.op, anchor);
}

} // namespace

std::optional<Chain> matchChain(PsumScatterOp scatter) {
  Chain chain;
  chain.scatter = scatter;
  Block *block = scatter->getBlock();
  if (!scatter.getTiled() || scatter.getDim() != 1 ||
      !isStatic2D(scatter.getType()) || scatter.getGroupSize() <= 1 ||
      !getManualContext(scatter))
    return std::nullopt;
  chain.down = scatter.getOperand().getDefiningOp<linalg::MatmulOp>();
  if (!chain.down || !isPlainMatmul(chain.down) ||
      chain.down->getBlock() != block || !chain.down->getResult(0).hasOneUse())
    return std::nullopt;
  Value value = chain.down.getInputs()[0];
  while (auto generic = value.getDefiningOp<linalg::GenericOp>()) {
    if (!value.hasOneUse() || generic->getBlock() != block ||
        !isRowwiseElementwise(generic))
      return std::nullopt;
    chain.middle.insert(chain.middle.begin(), generic);
    value = generic.getDpsInputOperand(0)->get();
  }
  chain.up = value.getDefiningOp<linalg::MatmulOp>();
  if (!chain.up || !value.hasOneUse() || !isPlainMatmul(chain.up) ||
      chain.up->getBlock() != block)
    return std::nullopt;
  chain.gather = chain.up.getInputs()[0].getDefiningOp<AllGatherOp>();
  if (!chain.gather || !chain.gather.getTiled() || chain.gather.getDim() != 1 ||
      !chain.gather->hasOneUse() || chain.gather->getBlock() != block ||
      !isStatic2D(chain.gather.getOperand().getType()) ||
      chain.gather.getAxes() != scatter.getAxes())
    return std::nullopt;
  return chain;
}

void microbatch(RewriterBase &rewriter, Chain &chain, int64_t microbatches,
                bool bidirectional) {
  int64_t n = chain.scatter.getGroupSize();
  int64_t k = microbatches;
  // Block b + 1's all-gather step i runs with block b's step n - 2 + i
  // (keys count half steps): two all-gather steps of the next block are
  // on their way before a block's middle.
  int64_t skew = 2 * std::max<int64_t>(1, n - 2);
  // The tags live in the rewriter's listener while the blocks are built;
  // the reordering's moves are not tagged.
  OpBuilder::Listener *previous = rewriter.getListener();
  StepTagger tagger(previous);
  rewriter.setListener(&tagger);
  auto setKey = [&](int64_t blk, int64_t local) {
    tagger.current = {blk * skew + local, blk};
  };
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(chain.down);
  ChainSplitter splitter(chain, rewriter, setKey);
  auto blocks = splitter.split(k, /*middleKey=*/2 * (n - 1));
  for (auto [blk, matmuls] : llvm::enumerate(blocks)) {
    int64_t index = static_cast<int64_t>(blk);
    for (linalg::MatmulOp matmul : {matmuls.first, matmuls.second}) {
      std::optional<Match> match = matchAt(matmul);
      assert(match && "a split chain's matmuls match");
      rewriteMatch(rewriter, *match, bidirectional, /*unrollSteps=*/true,
                   &tagger,
                   [&, index](int64_t local) { setKey(index, local); });
    }
  }
  rewriter.setListener(previous);
  reorderByKey(rewriter, splitter.first, splitter.last, tagger.tags);
}

} // namespace mlir::spmd::collective_matmul
