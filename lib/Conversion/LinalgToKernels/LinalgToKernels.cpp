//===- LinalgToKernels.cpp - Contractions to Eigen GEMM calls -------------===//

#include "dialects/trellis/IR/LinalgUtils.h"
#include "trellis/Conversion/Passes.h"
#include "trellis/Conversion/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISLINALGTOKERNELS
#include "trellis/Conversion/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;

namespace {

/// Contractions of at least this many multiply-adds (64^3) that stay loops
/// are reported.
constexpr int64_t kLoopRemarkWork = 64 * 64 * 64;

/// Position of loop dimension `dim` among the results of `map`, if any.
std::optional<unsigned> resultPosition(AffineMap map, unsigned dim) {
  for (unsigned i = 0; i < map.getNumResults(); ++i)
    if (auto expr = dyn_cast<AffineDimExpr>(map.getResult(i)))
      if (expr.getPosition() == dim)
        return i;
  return std::nullopt;
}

/// Whether `value` is the constant +0 (integer 0, or float +0.0). An
/// overwriting matmul equals +0 plus the sum of products up to the sign of
/// an exactly-zero sum (Eigen's path for tiny sizes, which sums the products
/// directly, may give -0.0 where +0 + sum gave +0); a -0.0 fill is rare and
/// left alone.
bool isPositiveZero(Value value) {
  return matchPattern(value, m_Zero()) || matchPattern(value, m_PosZeroFloat());
}

/// `op` is `linalg.fill` of +0 into all of `buffer`.
bool isZeroFillOf(Operation *op, Value buffer) {
  auto fill = dyn_cast<linalg::FillOp>(op);
  return fill && fill.hasPureBufferSemantics() &&
         fill.getDpsInitOperand(0)->get() == buffer &&
         isPositiveZero(fill.getDpsInputOperand(0)->get());
}

/// The users of `buffer` nested in `op` (or `op` itself).
SmallVector<Operation *> usersWithin(Operation *op, Value buffer) {
  SmallVector<Operation *> users;
  for (Operation *user : buffer.getUsers())
    if (op->isAncestor(user))
      users.push_back(user);
  return users;
}

/// `op` reads `buffer` and does not write it.
bool onlyReads(Operation *op, Value buffer) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return copy.getSource() == buffer && copy.getTarget() != buffer;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.hasPureBufferSemantics() &&
           llvm::none_of(linalgOp.getDpsInits(),
                         [&](Value init) { return init == buffer; });
  return false;
}

/// Whether `buffer` holds zeros when `reader` (a copy from it) runs: it is
/// a fresh allocation that no view or pointer aliases (its users are linalg
/// ops, copies and deallocs), and the last op before `reader` that uses it
/// is a zero fill, with only reads between, looking out through enclosing
/// regions (loops included: everything in them must only read it).
/// Bufferization leaves this shape when one zero-filled tensor initialises
/// several matmuls: the fill is made once and copied into each accumulator
/// (and the last matmul may accumulate into the filled buffer itself).
bool holdsZerosAt(Value buffer, Operation *reader) {
  if (!buffer.getDefiningOp<memref::AllocOp>() ||
      !llvm::all_of(buffer.getUsers(), [](Operation *user) {
        return isa<linalg::LinalgOp, memref::CopyOp, memref::DeallocOp>(user);
      }))
    return false;
  auto onlyReadsWithin = [&](Operation *op) {
    return llvm::all_of(usersWithin(op, buffer), [&](Operation *user) {
      return onlyReads(user, buffer);
    });
  };
  for (Operation *at = reader; at; at = at->getParentOp()) {
    if (at != reader &&
        (at->hasTrait<OpTrait::IsIsolatedFromAbove>() || !onlyReadsWithin(at)))
      return false;
    for (Operation *op = at->getPrevNode(); op; op = op->getPrevNode()) {
      if (op == buffer.getDefiningOp())
        return false;
      if (isZeroFillOf(op, buffer))
        return true;
      if (!onlyReadsWithin(op))
        return false;
    }
  }
  return false;
}

/// The op that zeroes all of `buffer` just before `matmul` writes it, so
/// that the matmul can overwrite instead of accumulate and the zeroing can
/// go: `linalg.fill` of +0, or a `memref.copy` from a buffer holding zeros.
/// `buffer` must be allocated in the matmul's block (a fresh buffer each
/// time the block runs, so no pointer to it survives from an earlier pass
/// through a loop), with an identity layout (no two elements share memory),
/// and nothing but the zeroing op may use it between its allocation and the
/// matmul (a use before the zeroing could have handed its address to
/// something that writes it later). The matmul must not read it either. The
/// caller checks that the matmul writes every element.
Operation *zeroingBefore(linalg::LinalgOp matmul, Value buffer) {
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != matmul->getBlock() ||
      !alloc.getType().getLayout().isIdentity() ||
      llvm::is_contained(matmul.getDpsInputs(), buffer))
    return nullptr;
  Operation *zeroing = nullptr;
  for (Operation *op = matmul->getPrevNode(); op != alloc;
       op = op->getPrevNode()) {
    auto copy = dyn_cast<memref::CopyOp>(op);
    if (!zeroing &&
        (isZeroFillOf(op, buffer) || (copy && copy.getTarget() == buffer &&
                                      holdsZerosAt(copy.getSource(), copy)))) {
      zeroing = op;
      continue;
    }
    if (!usersWithin(op, buffer).empty())
      return nullptr;
  }
  return zeroing;
}

struct Operand {
  Value address;
  SmallVector<Value> strides; // per memref dimension, i64
  AffineMap map;
  Value stride(OpBuilder &b, Location loc, std::optional<unsigned> dim) const {
    if (!dim)
      return trellis::i64Const(b, loc, 0);
    auto pos = resultPosition(map, *dim);
    if (!pos)
      return trellis::i64Const(b, loc, 0);
    return strides[*pos];
  }
};

/// A dimension of the kernel call, or a loop around it: the loop dimension
/// whose strides the operands use, and its size (several merged
/// dimensions' product when `merged` > 1).
struct KernelDim {
  unsigned dim;
  int64_t size;
  int64_t merged;
  bool reduction;
};

struct LinalgToKernelsPass
    : mlir::trellis::impl::TrellisLinalgToKernelsBase<LinalgToKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(trellis::verifyRuntimeDeclarations(module)))
      return signalPassFailure();
    SmallVector<linalg::LinalgOp> candidates;
    module.walk([&](linalg::LinalgOp op) {
      // A body with more than the products (an exp on a factor) is not a
      // matmul of the operands.
      if (op.hasPureBufferSemantics() &&
          trellis::isPlainContraction(op, /*allowExtensions=*/true))
        candidates.push_back(op);
    });
    llvm::SetVector<Value> zeroSources;
    for (linalg::LinalgOp op : candidates) {
      std::string why;
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      int64_t work = 1;
      for (int64_t r : ranges)
        work = ShapedType::isDynamic(r) || llvm::MulOverflow(work, r, work)
                   ? std::numeric_limits<int64_t>::max()
                   : work;
      Location loc = op.getLoc();
      if (succeeded(lower(module, op, zeroSources, why)) ||
          work < kLoopRemarkWork)
        continue;
      // A large contraction left to scalar loops runs orders of magnitude
      // below the kernels: say so, where the user can see it.
      emitRemark(loc) << "a contraction of " << work
                      << " multiply-adds runs as loops, not a matmul kernel: "
                      << why;
    }
    // A zero-filled buffer that was only copied into accumulators which now
    // start by overwriting is dead.
    for (Value source : zeroSources)
      eraseIfOnlyFilledAndFreed(source);
  }

  static void eraseIfOnlyFilledAndFreed(Value buffer) {
    auto alloc = buffer.getDefiningOp<memref::AllocOp>();
    if (!alloc || !llvm::all_of(buffer.getUsers(), [](Operation *user) {
          return isa<linalg::FillOp, memref::DeallocOp>(user);
        }))
      return;
    for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
      user->erase();
    alloc->erase();
  }

  /// Whether `op` multiplies bf16 or f16 A and B into an f32 C, its body
  /// exactly c + extf(a) * extf(b) (in either order): products of the
  /// extended operands, not extended products of 16-bit ones.
  static bool isWidening(linalg::LinalgOp op, Type a, Type b, Type c) {
    if (a != b || !(a.isBF16() || a.isF16()) || !c.isF32())
      return false;
    Block *body = op.getBlock();
    // extf, extf, mulf, addf and the yield: nothing else.
    if (body->getNumArguments() != 3 || body->getOperations().size() != 5)
      return false;
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    auto add = yield.getNumOperands() == 1
                   ? yield.getOperand(0).getDefiningOp<arith::AddFOp>()
                   : nullptr;
    if (!add)
      return false;
    Value acc = body->getArgument(2);
    Value product = add.getLhs() == acc   ? add.getRhs()
                    : add.getRhs() == acc ? add.getLhs()
                                          : Value();
    auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
    if (!mul)
      return false;
    auto extended = [](Value v) -> Value {
      auto ext = v.getDefiningOp<arith::ExtFOp>();
      return ext ? ext.getIn() : Value();
    };
    Value x = extended(mul.getLhs()), y = extended(mul.getRhs());
    Value in0 = body->getArgument(0), in1 = body->getArgument(1);
    return (x == in0 && y == in1) || (x == in1 && y == in0);
  }

  /// Lowers `op` to a kernel call, or fails with the reason (for the
  /// remark on contractions left to loops).
  FailureOr<bool> lower(ModuleOp module, linalg::LinalgOp op,
                        llvm::SetVector<Value> &zeroSources,
                        std::string &why) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (failed(dims)) {
      why = "its dimensions are not those of a contraction";
      return failure();
    }
    if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1) {
      why = "it does not have two inputs and one output";
      return failure();
    }
    SmallVector<Value> operands = {op.getDpsInputOperand(0)->get(),
                                   op.getDpsInputOperand(1)->get(),
                                   op.getDpsInitOperand(0)->get()};
    auto elementOf = [](Value v) {
      return cast<MemRefType>(v.getType()).getElementType();
    };
    Type elementType = elementOf(operands[2]);
    // bf16 or f16 A and B into an f32 C (trellis-widen-accumulation's
    // form): the products and sums in f32.
    const bool widening = isWidening(op, elementOf(operands[0]),
                                     elementOf(operands[1]), elementType);
    if (widening)
      elementType = elementOf(operands[0]);
    else
      for (Value v : operands)
        if (elementOf(v) != elementType) {
          why = "its operands' element types differ";
          return failure();
        }
    std::optional<int32_t> dtype = trellis::getRuntimeDtype(elementType);
    if (!dtype || !(widening || elementType.isF32() || elementType.isF64() ||
                    elementType.isInteger(32) || elementType.isInteger(64))) {
      why = "the kernels do not take its element type";
      return failure();
    }
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    for (AffineMap map : maps)
      if (!map.isProjectedPermutation()) {
        why = "an operand is indexed by more than loop dimensions";
        return failure();
      }
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (llvm::any_of(ranges, ShapedType::isDynamic)) {
      why = "it has dynamic sizes";
      return failure();
    }
    // Every loop must be a batch, M, N or K dimension: one the kernel does
    // not know (a parallel one only C has, say) would be left out.
    unsigned classified = dims->batch.size() + dims->m.size() +
                          dims->n.size() + dims->k.size();
    if (classified != ranges.size()) {
      why = "a loop dimension is none of batch, M, N and K";
      return failure();
    }

    SmallVector<SmallVector<int64_t>> staticStrides;
    for (Value value : operands) {
      SmallVector<int64_t> strides;
      int64_t offset;
      auto type = cast<MemRefType>(value.getType());
      if (failed(type.getStridesAndOffset(strides, offset)))
        strides.assign(type.getRank(), ShapedType::kDynamic);
      staticStrides.push_back(strides);
    }
    // The static stride of loop `dim` in operand `o` (0: the operand does
    // not have it), or kDynamic.
    auto staticStride = [&](unsigned o, unsigned dim) -> int64_t {
      std::optional<unsigned> pos = resultPosition(maps[o], dim);
      return pos ? staticStrides[o][*pos] : 0;
    };

    // Each class of dimensions becomes one kernel dimension: unit ones
    // drop out, ones that lie nested in memory alike in every operand
    // merge (m1 x m2 with stride(m1) = size(m2) * stride(m2)), and the rest
    // but the innermost become loops around the call.
    SmallVector<KernelDim> loops;
    auto reduce = [&](ArrayRef<unsigned> group, unsigned reference,
                      bool reduction) -> std::optional<KernelDim> {
      SmallVector<unsigned> kept;
      for (unsigned d : group)
        if (ranges[d] != 1)
          kept.push_back(d);
      if (kept.empty())
        return std::nullopt;
      // Outermost first, by the reference operand's static strides (when
      // they are all known), else in loop order.
      bool known = llvm::all_of(kept, [&](unsigned d) {
        return staticStride(reference, d) != ShapedType::kDynamic;
      });
      if (known) {
        // A stable sort by stride, descending, as (stride, position) keys:
        // std::stable_sort's buffer is deprecated in libstdc++ 12 (C++17).
        SmallVector<std::pair<int64_t, size_t>> keys;
        for (auto [i, d] : llvm::enumerate(kept))
          keys.push_back({staticStride(reference, d), i});
        llvm::sort(keys, [](auto a, auto b) {
          return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        SmallVector<unsigned> byStride;
        for (auto [stride, i] : keys)
          byStride.push_back(kept[i]);
        kept = std::move(byStride);
      }
      KernelDim inner = {kept.back(), ranges[kept.back()], 1, reduction};
      for (int i = static_cast<int>(kept.size()) - 2; i >= 0; --i) {
        unsigned outer = kept[i];
        bool nested = known;
        for (unsigned o = 0; o < 3 && nested; ++o) {
          int64_t so = staticStride(o, outer), si = staticStride(o, inner.dim);
          bool has = resultPosition(maps[o], outer).has_value();
          if (!has)
            continue;
          nested = so != ShapedType::kDynamic && si != ShapedType::kDynamic &&
                   so == si * inner.size;
        }
        if (nested) {
          inner.size *= ranges[outer];
          inner.merged *= ranges[outer];
          continue;
        }
        loops.push_back({outer, ranges[outer], 1, reduction});
      }
      return inner;
    };
    std::optional<KernelDim> batch = reduce(dims->batch, 2, false);
    std::optional<KernelDim> m = reduce(dims->m, 2, false);
    std::optional<KernelDim> n = reduce(dims->n, 2, false);
    std::optional<KernelDim> k = reduce(dims->k, 0, true);

    // Overwriting needs the call (or calls) to write each element of C
    // once: not when K is split into loops around it.
    bool kLoops = llvm::any_of(loops, [](const KernelDim &l) {
      return l.reduction;
    });
    Operation *zeroing = kLoops ? nullptr : zeroingBefore(op, operands[2]);

    // (After the zeroing is found: these read the buffers too.)
    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Operand> views;
    for (auto [value, map] : llvm::zip(operands, maps)) {
      Operand view;
      view.map = map;
      view.address = trellis::bufferAddress(b, loc, value, &view.strides);
      views.push_back(view);
    }

    // The loops around the call, each moving the addresses of the operands
    // that have its dimension.
    int64_t elementBytes =
        llvm::divideCeil(elementOf(operands[0]).getIntOrFloatBitWidth(), 8);
    int64_t cBytes =
        llvm::divideCeil(elementOf(operands[2]).getIntOrFloatBitWidth(), 8);
    SmallVector<Value> addresses = {views[0].address, views[1].address,
                                    views[2].address};
    OpBuilder::InsertionGuard guard(b);
    for (const KernelDim &l : loops) {
      Value lb = arith::ConstantIndexOp::create(b, loc, 0);
      Value ub = arith::ConstantIndexOp::create(b, loc, l.size);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      auto loop = scf::ForOp::create(b, loc, lb, ub, one);
      b.setInsertionPointToStart(loop.getBody());
      Value iv = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                            loop.getInductionVar());
      for (unsigned o = 0; o < 3; ++o) {
        if (!resultPosition(maps[o], l.dim))
          continue;
        Value stride = views[o].stride(b, loc, l.dim);
        Value bytes = trellis::i64Const(b, loc, o == 2 ? cBytes : elementBytes);
        Value step = arith::MulIOp::create(
            b, loc, arith::MulIOp::create(b, loc, iv, stride), bytes);
        addresses[o] = arith::AddIOp::create(b, loc, addresses[o], step);
      }
    }

    auto c64 = [&](int64_t v) { return trellis::i64Const(b, loc, v); };
    auto size = [&](const std::optional<KernelDim> &d) {
      return c64(d ? d->size : 1);
    };
    auto stride = [&](unsigned o, const std::optional<KernelDim> &d) {
      return views[o].stride(b, loc, d ? std::optional<unsigned>(d->dim)
                                       : std::nullopt);
    };
    SmallVector<Value> args = {trellis::i32Const(b, loc, *dtype)};
    if (widening)
      args.push_back(trellis::i32Const(b, loc, zeroing ? 1 : 0));
    args.append({size(batch), size(m), size(n), size(k), addresses[0],
                 stride(0, batch), stride(0, m), stride(0, k), addresses[1],
                 stride(1, batch), stride(1, k), stride(1, n), addresses[2],
                 stride(2, batch), stride(2, m), stride(2, n)});
    trellis::callRuntime(b, loc, module,
                         widening  ? trellis::RuntimeFunc::matmul_widening
                         : zeroing ? trellis::RuntimeFunc::matmul_overwrite
                                   : trellis::RuntimeFunc::matmul,
                         args);
    op->erase();
    if (zeroing) {
      if (auto copy = dyn_cast<memref::CopyOp>(zeroing))
        zeroSources.insert(copy.getSource());
      zeroing->erase();
    }
    return true;
  }
};

} // namespace
