//===- TransposeRegions.cpp - Transposes of collectives and regions -------===//
//
// spmd-transpose's rules for the ops that are not single upstream ops: a
// typed collective transposes by its own rule (CollectiveOpInterface); a
// shard_map into a shard_map with its specs swapped, rescaled where the
// variance types cannot prove an output's blocks equal; an scf.for into a
// loop that runs the transposed body backwards.
//
//===----------------------------------------------------------------------===//

#include "lib/Dialect/Spmd/Transforms/Transposer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

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

LogicalResult Transposer::transposeFor(scf::ForOp loop, Scope &s,
                                       OpBuilder &b) {
  Location loc = loop.getLoc();
  SetVector<Value> captured = capturedLinear(loop);
  unsigned numCarried = loop.getNumRegionIterArgs();

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
  for (auto [k, result] : llvm::enumerate(loop.getResults())) {
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
        Block *body = loop.getBody();
        if (failed(cloneForward(*body, child, nb))) {
          status = failure();
          return;
        }
        Operation *yield = body->getTerminator();
        for (auto [j, value] : llvm::enumerate(yield->getOperands())) {
          if (isLinear(value))
            accumulate(child, nb, l, value, args[j]);
          else if (!isZero(value)) {
            status = yield->emitOpError("yields value #")
                     << j
                     << ", which does not depend on the linear arguments, "
                        "as a linear loop-carried value: the loop is affine, "
                        "not linear";
            return;
          }
        }
        if (failed(transposeBackward(*body, child, nb))) {
          status = failure();
          return;
        }
        SmallVector<Value> next;
        for (BlockArgument arg : loop.getRegionIterArgs()) {
          Value c = child.ct.lookup(arg);
          next.push_back(c ? c : zeros(nb, l, arg.getType()));
        }
        for (auto [j, value] : llvm::enumerate(captured)) {
          Value acc = args[numCarried + j];
          Value c = child.ct.lookup(value);
          next.push_back(c ? buildAdd(nb, l, acc, c) : acc);
        }
        scf::YieldOp::create(nb, l, next);
      });
  if (failed(status))
    return failure();

  for (auto [k, init] : llvm::enumerate(loop.getInitArgs())) {
    if (isLinear(init))
      accumulate(s, b, loc, init, t.getResult(k));
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

} // namespace mlir::spmd::transpose
