//===- TransposeRegions.cpp - Transposes of collectives and regions -------===//
//
// spmd-transpose's rules for the ops that are not single upstream ops: a
// typed collective transposes by its own rule (CollectiveOpInterface); a
// shard_map into a shard_map with its specs swapped, rescaled where the
// variance types cannot prove an output's blocks equal; an auto_axes or
// explicit_axes region into one of the same kind over the cotangents; an
// scf.for into a loop that runs the transposed body backwards.
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/Spmd/Transposer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

namespace mlir::spmd::transpose {

LogicalResult Transposer::transposeCollective(CollectiveOpInterface op,
                                              Scope &s, OpBuilder &b) {
  Value operand = op->getOperand(0);
  Value c = s.ct.lookup(op->getResult(0));
  FailureOr<Value> t =
      op.buildTranspose(b, c, stripVaryEncoding(operand.getType()), naive);
  if (failed(t))
    return failure();
  accumulate(s, b, op.getLoc(), operand, *t);
  return success();
}

LogicalResult Transposer::transposeShardMap(ShardMapOp map, Scope &s,
                                            OpBuilder &b) {
  Location loc = map.getLoc();
  Block &body = map.getBodyBlock();
  Operation *yield = body.getTerminator();
  trellis::MeshOp mesh = map.getMeshOp();
  SmallVector<StringAttr> own = map.getOwnManualAxes();

  SmallVector<Value> inputs;
  SmallVector<Attribute> inSpecs, outSpecs;
  SmallVector<Type> argTypes, resultTypes;
  SmallVector<unsigned> nonlinearArgs, cotangentResults, linearArgs;
  for (auto [k, operand] : llvm::enumerate(map.getInputs())) {
    if (isLinear(operand)) {
      linearArgs.push_back(k);
      resultTypes.push_back(stripVaryEncoding(operand.getType()));
      outSpecs.push_back(map.getInSpecs()[k]);
      continue;
    }
    nonlinearArgs.push_back(k);
    inputs.push_back(fwd(s, operand));
    inSpecs.push_back(map.getInSpecs()[k]);
    argTypes.push_back(stripVaryEncoding(body.getArgument(k).getType()));
  }
  for (auto [j, result] : llvm::enumerate(map.getResults())) {
    Value c = s.ct.lookup(result);
    if (!c)
      continue;
    cotangentResults.push_back(j);
    inputs.push_back(c);
    inSpecs.push_back(map.getOutSpecs()[j]);
    argTypes.push_back(stripVaryEncoding(yield->getOperand(j).getType()));
  }
  if (linearArgs.empty())
    return success();

  auto t = ShardMapOp::create(b, loc, resultTypes, map.getMeshAttr(),
                              b.getArrayAttr(inSpecs), b.getArrayAttr(outSpecs),
                              map.getManualAxesAttr(), map.getCheckVmaAttr(),
                              inputs);
  auto *block = new Block();
  t.getBody().push_back(block);
  for (Type type : argTypes)
    block->addArgument(type, loc);
  OpBuilder inner = OpBuilder::atBlockBegin(block);
  Scope is;
  for (auto [idx, k] : llvm::enumerate(nonlinearArgs))
    is.fwd.map(body.getArgument(k), block->getArgument(idx));
  if (failed(cloneForward(body, is, inner)))
    return failure();

  // Cotangents of the outputs. An output spec that omits axis `a` means one
  // copy of the (equal) blocks is the result; one that maps an axis the
  // value is invariant over makes copies of it.
  for (auto [idx, j] : llvm::enumerate(cotangentResults)) {
    Value yielded = yield->getOperand(j); // linear: its result has a ct
    Value c = block->getArgument(nonlinearArgs.size() + idx);
    SmallVector<StringAttr> vary;
    if (VaryAttr attr = getVaryEncoding(yielded.getType()))
      vary = llvm::to_vector(attr.getAxes());
    SmallVector<StringAttr> mapped =
        cast<trellis::SpecAttr>(map.getOutSpecs()[j]).getAllAxes();
    SmallVector<StringAttr> divide, copies;
    for (StringAttr axis : own) {
      bool isMapped = llvm::is_contained(mapped, axis);
      bool varies = llvm::is_contained(vary, axis);
      // Naive: divide by every unmapped axis (today's JAX). Efficient: only
      // where the types cannot prove the blocks equal (check_vma = false).
      if (!isMapped && (naive || varies))
        divide.push_back(axis);
      if (isMapped && !varies)
        copies.push_back(axis);
    }
    if (!divide.empty()) {
      if (!isFloat(c.getType()))
        return map.emitOpError("output #")
               << j
               << " needs rescaling to be transposed, which needs a "
                  "floating-point element type";
      c = buildDivideBy(inner, loc, c, mesh.getAxesSize(divide));
    }
    // The copies' cotangents add up (in naive mode the per-device parts
    // stand for their sum already).
    if (!copies.empty() && !naive)
      c = PsumOp::create(inner, loc, c.getType(), c, axesAttr(inner, copies));
    accumulate(is, inner, loc, yielded, c);
  }

  if (failed(transposeBackward(body, is, inner)))
    return failure();

  SmallVector<Value> results;
  for (unsigned k : linearArgs) {
    BlockArgument arg = body.getArgument(k);
    Value c = is.ct.lookup(arg);
    if (!c)
      c = zeros(inner, loc, arg.getType());
    if (naive) {
      // Per-device parts of an input's cotangent along axes it is not split
      // over are summed (today's JAX psums unmapped inputs' cotangents).
      SmallVector<StringAttr> mapped =
          cast<trellis::SpecAttr>(map.getInSpecs()[k]).getAllAxes();
      SmallVector<StringAttr> unmapped;
      for (StringAttr axis : own)
        if (!llvm::is_contained(mapped, axis))
          unmapped.push_back(axis);
      if (!unmapped.empty())
        c = PsumOp::create(inner, loc, c.getType(), c,
                           axesAttr(inner, unmapped));
    }
    results.push_back(c);
  }
  YieldOp::create(inner, loc, results);

  for (auto [idx, k] : llvm::enumerate(linearArgs))
    accumulate(s, b, loc, map.getInputs()[k], t.getResult(idx));
  return success();
}

/// A copy of axis region `op` (auto_axes / explicit_axes) with other
/// operands and results, and an empty body taking `argTypes`.
static Operation *buildAxisRegion(OpBuilder &b, Operation *op,
                                  ValueRange operands, TypeRange resultTypes,
                                  TypeRange argTypes) {
  OperationState state(op->getLoc(), op->getName());
  state.addAttributes(op->getAttrs());
  state.addOperands(operands);
  state.addTypes(resultTypes);
  Region *region = state.addRegion();
  auto *block = new Block();
  region->push_back(block);
  for (Type type : argTypes)
    block->addArgument(type, op->getLoc());
  return b.create(state);
}

LogicalResult Transposer::cloneForwardAxisRegion(Operation *op, Scope &s,
                                                 OpBuilder &b) {
  Block &body = op->getRegion(0).front();
  Operation *yield = body.getTerminator();
  SmallVector<unsigned> inputs, outputs;
  SmallVector<Value> operands;
  SmallVector<Type> argTypes, resultTypes;
  for (auto [k, operand] : llvm::enumerate(op->getOperands()))
    if (!isLinear(operand)) {
      inputs.push_back(k);
      operands.push_back(fwd(s, operand));
      argTypes.push_back(stripVaryEncoding(body.getArgument(k).getType()));
    }
  for (auto [j, result] : llvm::enumerate(op->getResults()))
    if (!isLinear(result) && !result.use_empty()) {
      outputs.push_back(j);
      resultTypes.push_back(stripVaryEncoding(result.getType()));
    }
  if (outputs.empty())
    return success();
  Operation *copy = buildAxisRegion(b, op, operands, resultTypes, argTypes);
  Block *block = &copy->getRegion(0).front();
  Scope inner;
  for (auto [idx, k] : llvm::enumerate(inputs))
    inner.fwd.map(body.getArgument(k), block->getArgument(idx));
  OpBuilder ib = OpBuilder::atBlockBegin(block);
  if (failed(cloneForward(body, inner, ib)))
    return failure();
  SmallVector<Value> yielded;
  for (unsigned j : outputs)
    yielded.push_back(inner.fwd.lookup(yield->getOperand(j)));
  trellis::YieldOp::create(ib, op->getLoc(), yielded);
  for (auto [idx, j] : llvm::enumerate(outputs))
    s.fwd.map(op->getResult(j), copy->getResult(idx));
  return success();
}

LogicalResult Transposer::transposeAxisRegion(Operation *op, Scope &s,
                                              OpBuilder &b) {
  Location loc = op->getLoc();
  Block &body = op->getRegion(0).front();
  Operation *yield = body.getTerminator();
  SmallVector<Value> operands;
  SmallVector<Type> argTypes, resultTypes;
  SmallVector<unsigned> nonlinearArgs, linearArgs, cotangentResults;
  for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
    if (isLinear(operand)) {
      linearArgs.push_back(k);
      resultTypes.push_back(stripVaryEncoding(operand.getType()));
      continue;
    }
    nonlinearArgs.push_back(k);
    operands.push_back(fwd(s, operand));
    argTypes.push_back(stripVaryEncoding(body.getArgument(k).getType()));
  }
  for (auto [j, result] : llvm::enumerate(op->getResults())) {
    Value c = s.ct.lookup(result);
    if (!c || !isLinear(yield->getOperand(j)))
      continue;
    cotangentResults.push_back(j);
    operands.push_back(c);
    argTypes.push_back(stripVaryEncoding(yield->getOperand(j).getType()));
  }
  if (linearArgs.empty())
    return success();

  Operation *t = buildAxisRegion(b, op, operands, resultTypes, argTypes);
  Block *block = &t->getRegion(0).front();
  OpBuilder inner = OpBuilder::atBlockBegin(block);
  Scope is;
  for (auto [idx, k] : llvm::enumerate(nonlinearArgs))
    is.fwd.map(body.getArgument(k), block->getArgument(idx));
  if (failed(cloneForward(body, is, inner)))
    return failure();
  for (auto [idx, j] : llvm::enumerate(cotangentResults))
    accumulate(is, inner, loc, yield->getOperand(j),
               block->getArgument(nonlinearArgs.size() + idx));
  if (failed(transposeBackward(body, is, inner)))
    return failure();
  SmallVector<Value> results;
  for (unsigned k : linearArgs) {
    BlockArgument arg = body.getArgument(k);
    Value c = is.ct.lookup(arg);
    results.push_back(c ? c : zeros(inner, loc, arg.getType()));
  }
  trellis::YieldOp::create(inner, loc, results);
  for (auto [idx, k] : llvm::enumerate(linearArgs))
    accumulate(s, b, loc, op->getOperand(k), t->getResult(idx));
  return success();
}

std::optional<int64_t> getConstantTripCount(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
}

Value iterationIndex(OpBuilder &b, Location loc, Value iv, Value lb,
                     Value step) {
  Value span = arith::SubIOp::create(b, loc, iv, lb);
  Value k = arith::DivSIOp::create(b, loc, span, step);
  if (!k.getType().isIndex())
    k = arith::IndexCastOp::create(b, loc, b.getIndexType(), k);
  return k;
}

/// The offsets, sizes and strides of row `k` of `rows` (a tensor with one
/// row of shape `row` per iteration).
struct Row {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};
static Row rowAt(OpBuilder &b, Value k, ArrayRef<int64_t> row) {
  Row r;
  r.offsets.assign(row.size() + 1, b.getIndexAttr(0));
  r.offsets[0] = k;
  r.sizes.push_back(b.getIndexAttr(1));
  for (int64_t size : row)
    r.sizes.push_back(b.getIndexAttr(size));
  r.strides.assign(row.size() + 1, b.getIndexAttr(1));
  return r;
}

/// Row `k` of `saved` as a value of `type` (a tensor or a scalar).
static Value loadRow(OpBuilder &b, Location loc, Value saved, Value k,
                     Type type) {
  auto tensor = dyn_cast<RankedTensorType>(stripVaryEncoding(type));
  if (!tensor)
    return tensor::ExtractOp::create(b, loc, saved, ValueRange{k});
  Row r = rowAt(b, k, tensor.getShape());
  return tensor::ExtractSliceOp::create(b, loc, tensor, saved, r.offsets,
                                        r.sizes, r.strides);
}

/// `saved` with `value` stored into row `k`.
static Value storeRow(OpBuilder &b, Location loc, Value value, Value saved,
                      Value k) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor)
    return tensor::InsertOp::create(b, loc, value, saved, ValueRange{k});
  Row r = rowAt(b, k, tensor.getShape());
  return tensor::InsertSliceOp::create(b, loc, value, saved, r.offsets, r.sizes,
                                       r.strides);
}

scf::ForOp Transposer::forwardLoop(scf::ForOp loop, ArrayRef<unsigned> carried,
                                   Scope &s, OpBuilder &b, Value ub,
                                   std::optional<int64_t> rows) {
  Location loc = loop.getLoc();
  SmallVector<Value> inits;
  for (unsigned k : carried)
    inits.push_back(fwd(s, loop.getInitArgs()[k]));
  if (rows)
    for (unsigned k : carried) {
      Type type = stripVaryEncoding(loop.getRegionIterArgs()[k].getType());
      SmallVector<int64_t> shape = {*rows};
      Type element = type;
      if (auto tensor = dyn_cast<RankedTensorType>(type)) {
        llvm::append_range(shape, tensor.getShape());
        element = tensor.getElementType();
      }
      inits.push_back(tensor::EmptyOp::create(b, loc, shape, element));
    }
  Value lb = fwd(s, loop.getLowerBound());
  Value step = fwd(s, loop.getStep());
  LogicalResult status = success();
  unsigned n = carried.size();
  auto copy = scf::ForOp::create(
      b, loc, lb, ub, step, inits,
      [&](OpBuilder &nb, Location l, Value iv, ValueRange args) {
        Scope child;
        child.fwd = s.fwd;
        child.fwd.map(loop.getInductionVar(), iv);
        SmallVector<Value> next;
        SmallVector<Value> stored;
        Value k = rows ? iterationIndex(nb, l, iv, lb, step) : Value();
        for (auto [idx, j] : llvm::enumerate(carried)) {
          child.fwd.map(loop.getRegionIterArgs()[j], args[idx]);
          if (rows)
            stored.push_back(storeRow(nb, l, args[idx], args[n + idx], k));
        }
        if (failed(cloneForward(*loop.getBody(), child, nb))) {
          status = failure();
          next.assign(args.begin(), args.end());
        } else {
          Operation *yield = loop.getBody()->getTerminator();
          for (unsigned j : carried) {
            Value v = yield->getOperand(j);
            next.push_back(child.fwd.lookupOrDefault(v));
          }
          llvm::append_range(next, stored);
        }
        scf::YieldOp::create(nb, l, next);
      });
  if (failed(status)) {
    copy.erase();
    return scf::ForOp();
  }
  return copy;
}

LogicalResult Transposer::cloneForwardFor(scf::ForOp loop, Scope &s,
                                          OpBuilder &b) {
  SmallVector<unsigned> carried;
  for (auto [k, arg] : llvm::enumerate(loop.getRegionIterArgs()))
    if (!isLinear(arg))
      carried.push_back(k);
  if (carried.empty())
    return success();
  // With a constant trip count every iteration's carried values are saved;
  // else the backward loop recomputes them from the start (memory: none;
  // compute: n(n+1)/2 forward bodies for n iterations).
  std::optional<int64_t> count = getConstantTripCount(loop);
  scf::ForOp copy =
      forwardLoop(loop, carried, s, b, fwd(s, loop.getUpperBound()), count);
  if (!copy)
    return failure();
  unsigned n = carried.size();
  for (auto [idx, j] : llvm::enumerate(carried))
    s.fwd.map(loop.getResult(j), copy.getResult(idx));
  if (count)
    saved[loop] = SmallVector<Value>(copy.getResults().drop_front(n));
  else
    recomputed.insert(loop);
  return success();
}

LogicalResult Transposer::transposeFor(scf::ForOp loop, Scope &s,
                                       OpBuilder &b) {
  Location loc = loop.getLoc();
  SetVector<Value> captured = capturedLinear(loop);
  SmallVector<unsigned> linearCarried, carried;
  for (auto [k, arg] : llvm::enumerate(loop.getRegionIterArgs()))
    (isLinear(arg) ? linearCarried : carried).push_back(k);
  SmallVector<Value> rows = saved.lookup(loop);
  bool recompute = recomputed.contains(loop);
  if (!carried.empty() && !recompute && rows.size() != carried.size())
    return loop.emitOpError("carries non-linear values whose forward copy "
                            "is missing; this is a bug in spmd-transpose");
  unsigned numCarried = linearCarried.size();

  // Iteration k of the new loop runs iteration n-1-k of the old one.
  Value lb = fwd(s, loop.getLowerBound());
  Value ub = fwd(s, loop.getUpperBound());
  Value step = fwd(s, loop.getStep());
  Type it = lb.getType();
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(it, 0));
  Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(it, 1));
  Value span = arith::SubIOp::create(b, loc, ub, lb);
  Value count = arith::CeilDivSIOp::create(b, loc, span, step);

  SmallVector<Value> inits;
  for (unsigned k : linearCarried) {
    Value result = loop.getResult(k);
    Value c = s.ct.lookup(result);
    inits.push_back(c ? c : zeros(b, loc, result.getType()));
  }
  for (Value value : captured)
    inits.push_back(zeros(b, loc, value.getType()));

  LogicalResult status = success();
  auto t = scf::ForOp::create(
      b, loc, zero, count, one, inits,
      [&](OpBuilder &nb, Location l, Value k, ValueRange args) {
        Value last = arith::SubIOp::create(nb, l, count, one);
        Value rev = arith::SubIOp::create(nb, l, last, k);
        Value offset = arith::MulIOp::create(nb, l, rev, step);
        Value iv = arith::AddIOp::create(nb, l, lb, offset);
        Scope child;
        child.fwd = s.fwd;
        child.fwd.map(loop.getInductionVar(), iv);
        if (recompute) {
          // The carried values at iteration `rev`: the forward loop again,
          // from the lower bound up to (not including) `iv`.
          scf::ForOp again =
              forwardLoop(loop, carried, s, nb, iv, std::nullopt);
          if (!again) {
            status = failure();
            scf::YieldOp::create(nb, l, SmallVector<Value>(args));
            return;
          }
          for (auto [idx, j] : llvm::enumerate(carried))
            child.fwd.map(loop.getRegionIterArgs()[j], again.getResult(idx));
        } else if (!carried.empty()) {
          Value row = rev.getType().isIndex()
                          ? rev
                          : Value(arith::IndexCastOp::create(
                                nb, l, nb.getIndexType(), rev));
          for (auto [idx, j] : llvm::enumerate(carried)) {
            BlockArgument arg = loop.getRegionIterArgs()[j];
            child.fwd.map(arg, loadRow(nb, l, rows[idx], row, arg.getType()));
          }
        }
        Block *body = loop.getBody();
        auto finish = [&] {
          scf::YieldOp::create(nb, l, SmallVector<Value>(args));
        };
        if (failed(cloneForward(*body, child, nb))) {
          status = failure();
          return finish();
        }
        Operation *yield = body->getTerminator();
        for (auto [idx, j] : llvm::enumerate(linearCarried)) {
          Value value = yield->getOperand(j);
          if (isLinear(value))
            accumulate(child, nb, l, value, args[idx]);
          else if (!isZero(value)) {
            status = yield->emitOpError("yields value #")
                     << j
                     << ", which does not depend on the linear arguments, "
                        "as a linear loop-carried value: the loop is affine, "
                        "not linear";
            return finish();
          }
        }
        if (failed(transposeBackward(*body, child, nb))) {
          status = failure();
          return finish();
        }
        SmallVector<Value> next;
        for (unsigned j : linearCarried) {
          BlockArgument arg = loop.getRegionIterArgs()[j];
          Value c = child.ct.lookup(arg);
          next.push_back(c ? c : zeros(nb, l, arg.getType()));
        }
        for (auto [j, value] : llvm::enumerate(captured)) {
          Value acc = args[numCarried + j];
          Value c = child.ct.lookup(value);
          next.push_back(c ? addCotangents(nb, l, acc, c) : acc);
        }
        scf::YieldOp::create(nb, l, next);
      });
  if (failed(status)) {
    t.erase();
    return failure();
  }

  for (auto [idx, k] : llvm::enumerate(linearCarried)) {
    Value init = loop.getInitArgs()[k];
    if (isLinear(init))
      accumulate(s, b, loc, init, t.getResult(idx));
    else if (!isZero(init))
      return loop.emitOpError("starts linear loop-carried value #")
             << k
             << " from a value that does not depend on the linear "
                "arguments and is not zero: the loop is affine, not linear";
  }
  for (auto [j, value] : llvm::enumerate(captured))
    accumulate(s, b, loc, value, t.getResult(numCarried + j));
  return success();
}

/// A builder at the end of `region`'s block, without the yield that
/// scf.if's builder may have put there.
static OpBuilder atBranchEnd(Region &region) {
  Block *block = &region.front();
  if (!block->empty())
    block->getTerminator()->erase();
  return OpBuilder::atBlockEnd(block);
}

LogicalResult Transposer::cloneForwardIf(scf::IfOp op, Scope &s, OpBuilder &b) {
  SmallVector<unsigned> outputs;
  for (auto [j, result] : llvm::enumerate(op.getResults()))
    if (!isLinear(result) && !result.use_empty())
      outputs.push_back(j);
  if (outputs.empty())
    return success();
  SmallVector<Type> types;
  for (unsigned j : outputs)
    types.push_back(stripVaryEncoding(op.getResult(j).getType()));
  auto copy =
      scf::IfOp::create(b, op.getLoc(), types, fwd(s, op.getCondition()),
                        /*withElseRegion=*/true);
  Region *from[2] = {&op.getThenRegion(), &op.getElseRegion()};
  Region *into[2] = {&copy.getThenRegion(), &copy.getElseRegion()};
  for (unsigned r = 0; r < 2; ++r) {
    OpBuilder bb = atBranchEnd(*into[r]);
    Scope child;
    child.fwd = s.fwd;
    if (failed(cloneForward(from[r]->front(), child, bb)))
      return failure();
    Operation *yield = from[r]->front().getTerminator();
    SmallVector<Value> values;
    for (unsigned j : outputs)
      values.push_back(child.fwd.lookupOrDefault(yield->getOperand(j)));
    scf::YieldOp::create(bb, yield->getLoc(), values);
  }
  for (auto [idx, j] : llvm::enumerate(outputs))
    s.fwd.map(op.getResult(j), copy.getResult(idx));
  return success();
}

LogicalResult Transposer::transposeIf(scf::IfOp op, Scope &s, OpBuilder &b) {
  Location loc = op.getLoc();
  SetVector<Value> captured = capturedLinear(op);
  SmallVector<Type> types;
  for (Value value : captured)
    types.push_back(stripVaryEncoding(value.getType()));
  auto t = scf::IfOp::create(b, loc, types, fwd(s, op.getCondition()),
                             /*withElseRegion=*/true);
  Region *from[2] = {&op.getThenRegion(), &op.getElseRegion()};
  Region *into[2] = {&t.getThenRegion(), &t.getElseRegion()};
  for (unsigned r = 0; r < 2; ++r) {
    OpBuilder bb = atBranchEnd(*into[r]);
    Scope child;
    child.fwd = s.fwd;
    Block &body = from[r]->front();
    LogicalResult status = cloneForward(body, child, bb);
    Operation *yield = body.getTerminator();
    for (auto [j, value] : llvm::enumerate(yield->getOperands())) {
      if (failed(status))
        break;
      Value c = s.ct.lookup(op.getResult(j));
      if (!c)
        continue;
      if (isLinear(value))
        accumulate(child, bb, loc, value, c);
      else if (!isZero(value))
        status = yield->emitOpError("yields value #")
                 << j
                 << ", which does not depend on the linear arguments, where "
                    "the other branch yields a linear one: the function is "
                    "affine, not linear";
    }
    if (succeeded(status))
      status = transposeBackward(body, child, bb);
    if (failed(status)) {
      t.erase();
      return failure();
    }
    SmallVector<Value> values;
    for (Value value : captured) {
      Value c = child.ct.lookup(value);
      values.push_back(c ? c : zeros(bb, loc, value.getType()));
    }
    scf::YieldOp::create(bb, loc, values);
  }
  for (auto [i, value] : llvm::enumerate(captured))
    accumulate(s, b, loc, value, t.getResult(i));
  return success();
}

} // namespace mlir::spmd::transpose
