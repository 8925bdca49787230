//===- ImportSdyRoundTrip.cpp - Shardy attributes hidden in strings -------===//
//
// Shardy's round-trip export (what XLA dumps and some `jax.export` versions
// print) keeps the sdy dialect out of the module: every sdy attribute is
// printed into a string under `mhlo.frontend_attributes`, next to the GSPMD
// `mhlo.sharding` string of the same value:
//
//   module attributes {mhlo.frontend_attributes = {xla.sdy.meshes =
//       "{mesh = #sdy.mesh<[\22x\22=2]>}"}}
//   %arg0: tensor<8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding =
//       "#sdy.sharding<@mesh, [{\22x\22}]>"}, mhlo.sharding = "..."}
//   custom_call @xla.sdy.FuncResultSharding / @Sharding (constraints)
//   custom_call @xla.sdy.GlobalToLocalShape, call
//       @xla.sdy.manual_computation_body, custom_call
//       @xla.sdy.LocalToGlobalShape (manual computations)
//
// This step runs first and rewrites all of it back into the sdy forms the
// importer reads (sdy.mesh, sdy.sharding, sdy.sharding_constraint,
// sdy.manual_computation); the sdy string wins over the GSPMD one.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Importer.h"

#include "mlir/AsmParser/AsmParser.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::import;

static constexpr StringLiteral kFrontend = "mhlo.frontend_attributes";
static constexpr StringLiteral kMhloSharding = "mhlo.sharding";
static constexpr StringLiteral kPrefix = "xla.sdy.";
static constexpr StringLiteral kBodyPrefix = "xla.sdy.manual_computation_body";

/// Parses all of `text` as an attribute, quietly; null if it is not one.
static Attribute parseWhole(StringRef text, MLIRContext *ctx) {
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  size_t read = 0;
  Attribute attr = parseAttribute(text, ctx, Type(), &read);
  return attr && read == text.size() ? attr : Attribute();
}

/// Reads one round-trip string: the printed attribute or, from older
/// exporters, the printed attribute C-escaped once more (`\"` for `"`).
static Attribute parseRoundTrip(Location loc, StringRef name, Attribute value) {
  auto text = dyn_cast<StringAttr>(value);
  if (!text) {
    emitError(loc, "Shardy round-trip attribute '")
        << name << "' must be a string";
    return {};
  }
  StringRef s = text.getValue();
  if (Attribute attr = parseWhole(s, loc.getContext()))
    return attr;
  std::string unescaped;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() &&
        (s[i + 1] == '"' || s[i + 1] == '\\'))
      ++i;
    unescaped.push_back(s[i]);
  }
  if (Attribute attr = parseWhole(unescaped, loc.getContext()))
    return attr;
  emitError(loc, "cannot read Shardy round-trip attribute '")
      << name << "': " << s;
  return {};
}

/// The `xla.sdy.*` entries of `op`'s or an argument's frontend attributes,
/// removed from it (the dictionary too when nothing else is left).
static DictionaryAttr takeRoundTrip(DictionaryAttr frontend,
                                    DictionaryAttr &rest) {
  NamedAttrList kept, taken;
  for (NamedAttribute entry : frontend)
    (entry.getName().getValue().starts_with(kPrefix) ? taken : kept)
        .push_back(entry);
  MLIRContext *ctx = frontend.getContext();
  rest = kept.empty() ? DictionaryAttr() : kept.getDictionary(ctx);
  return taken.getDictionary(ctx);
}

namespace {
/// The round-trip rewrite of one module.
struct RoundTrip {
  ModuleOp module;
  OpBuilder b;

  LogicalResult importMeshes(DictionaryAttr entries);
  LogicalResult importValueAttrs(func::FuncOp func);
  LogicalResult importOp(Operation *op, DictionaryAttr entries);
  LogicalResult importManual(func::CallOp call);
  LogicalResult run();
};
} // namespace

LogicalResult RoundTrip::importMeshes(DictionaryAttr entries) {
  for (NamedAttribute entry : entries) {
    StringRef name = entry.getName().getValue();
    Location loc =
        import::describedLoc(module.getLoc(), "module attribute " + name);
    if (name != "xla.sdy.meshes")
      return emitError(loc, "Shardy round-trip attribute '")
             << name << "' on the module is not supported";
    Attribute parsed = parseRoundTrip(loc, name, entry.getValue());
    if (!parsed)
      return failure();
    auto meshes = dyn_cast<DictionaryAttr>(parsed);
    if (!meshes)
      return emitError(loc, "xla.sdy.meshes must be a dictionary of meshes");
    b.setInsertionPointToStart(module.getBody());
    for (NamedAttribute mesh : meshes) {
      Attribute value = mesh.getValue();
      // The oldest exporters printed each mesh as a string of its own.
      if (isa<StringAttr>(value) &&
          !(value = parseRoundTrip(loc, mesh.getName().getValue(), value)))
        return failure();
      auto attr = dyn_cast_or_null<sdy::MeshAttr>(value);
      if (!attr)
        return emitError(loc, "xla.sdy.meshes entry '")
               << mesh.getName().getValue() << "' is not a #sdy.mesh";
      sdy::MeshOp::create(b, loc, mesh.getName(), attr);
    }
  }
  return success();
}

/// Arguments and results: `xla.sdy.sharding` becomes `sdy.sharding` and
/// replaces the GSPMD string.
LogicalResult RoundTrip::importValueAttrs(func::FuncOp func) {
  auto rewrite = [&](DictionaryAttr attrs, Location loc,
                     DictionaryAttr &out) -> LogicalResult {
    out = attrs;
    auto frontend = attrs ? attrs.getAs<DictionaryAttr>(kFrontend) : nullptr;
    if (!frontend)
      return success();
    DictionaryAttr rest;
    DictionaryAttr taken = takeRoundTrip(frontend, rest);
    NamedAttrList list(attrs);
    for (NamedAttribute entry : taken) {
      if (entry.getName().getValue() != "xla.sdy.sharding")
        return emitError(loc, "Shardy round-trip attribute '")
               << entry.getName().getValue() << "' is not supported here";
      Attribute parsed =
          parseRoundTrip(loc, entry.getName().getValue(), entry.getValue());
      if (!parsed)
        return failure();
      auto sharding = dyn_cast<sdy::TensorShardingAttr>(parsed);
      if (!sharding)
        return emitError(loc, "xla.sdy.sharding must be a #sdy.sharding");
      list.set(kSdySharding, sharding);
      list.erase(kMhloSharding);
    }
    if (rest)
      list.set(kFrontend, rest);
    else
      list.erase(kFrontend);
    out = list.getDictionary(func.getContext());
    return success();
  };
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    DictionaryAttr out;
    Location loc = import::describedLoc(
        func.isExternal() ? func.getLoc() : func.getArgument(i).getLoc(),
        "argument #" + Twine(i) + " of @" + func.getSymName());
    if (failed(rewrite(func.getArgAttrDict(i), loc, out)))
      return failure();
    func.setArgAttrs(i, out);
  }
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
    DictionaryAttr out;
    Location loc = import::describedLoc(
        func.getLoc(), "result #" + Twine(i) + " of @" + func.getSymName());
    if (failed(rewrite(func.getResultAttrDict(i), loc, out)))
      return failure();
    func.setResultAttrs(i, out);
  }
  return success();
}

/// The one sharding of a single-result op's `xla.sdy.sharding`.
static sdy::TensorShardingAttr onlySharding(Operation *op, Attribute attr) {
  auto perValue = dyn_cast_or_null<sdy::TensorShardingPerValueAttr>(attr);
  if (!perValue || perValue.getShardings().size() != 1 ||
      op->getNumOperands() != 1 || op->getNumResults() != 1) {
    op->emitError("needs one operand, one result and a "
                  "#sdy.sharding_per_value with one sharding");
    return {};
  }
  return perValue.getShardings().front();
}

LogicalResult RoundTrip::importOp(Operation *op, DictionaryAttr entries) {
  auto call = dyn_cast<hlo::CustomCallOp>(op);
  StringRef target = call ? call.getCallTargetName() : StringRef();
  for (NamedAttribute entry : entries) {
    StringRef name = entry.getName().getValue();
    if (name == "xla.sdy.sharding_rule")
      continue; // a propagation hint for a custom op
    if (name == "xla.sdy.in_shardings" || name == "xla.sdy.out_shardings" ||
        name == "xla.sdy.manual_axes")
      continue; // read with the manual computation
    if (name != "xla.sdy.sharding")
      return op->emitError("Shardy round-trip attribute '")
             << name << "' is not supported";
    Attribute attr = parseRoundTrip(op->getLoc(), name, entry.getValue());
    if (!attr)
      return failure();
    if (target == "xla.sdy.FuncResultSharding") {
      // The sharding of the function result(s) it is returned as.
      sdy::TensorShardingAttr sharding = onlySharding(op, attr);
      if (!sharding)
        return failure();
      auto func = op->getParentOfType<func::FuncOp>();
      for (OpOperand &use : op->getResult(0).getUses())
        if (isa<func::ReturnOp>(use.getOwner()) &&
            use.getOwner()->getParentOp() == func) {
          unsigned i = use.getOperandNumber();
          func.removeResultAttr(i, b.getStringAttr(kMhloSharding));
          func.setResultAttr(i, kSdySharding, sharding);
        }
      op->getResult(0).replaceAllUsesWith(op->getOperand(0));
      op->erase();
      return success();
    }
    if (target == "Sharding") {
      sdy::TensorShardingAttr sharding = onlySharding(op, attr);
      if (!sharding)
        return failure();
      b.setInsertionPoint(op);
      auto constraint = sdy::ShardingConstraintOp::create(
          b, op->getLoc(), op->getOperand(0).getType(), op->getOperand(0),
          sharding);
      op->getResult(0).replaceAllUsesWith(constraint.getResult());
      op->erase();
      return success();
    }
    if (!isa<sdy::TensorShardingPerValueAttr>(attr))
      return op->emitError("xla.sdy.sharding on an op must be a "
                           "#sdy.sharding_per_value");
    op->setAttr(kSdySharding, attr);
    op->removeAttr(kMhloSharding);
  }
  if (target == "xla.sdy.FuncResultSharding")
    return op->emitError("@xla.sdy.FuncResultSharding without a sharding");
  return success();
}

/// The value of round-trip attribute `name` on the first of `ops` (the
/// shape custom calls or, in older exports, the call) that has it.
static Attribute findManualAttr(ArrayRef<Operation *> ops, StringRef name) {
  for (Operation *op : ops) {
    if (!op)
      continue;
    auto frontend = op->getAttrOfType<DictionaryAttr>(kFrontend);
    if (Attribute value = frontend ? frontend.get(name) : Attribute())
      return parseRoundTrip(op->getLoc(), name, value);
  }
  return {};
}

/// `@xla.sdy.GlobalToLocalShape` -> `call @xla.sdy.manual_computation_body`
/// -> `@xla.sdy.LocalToGlobalShape` becomes one sdy.manual_computation with
/// the body inlined.
LogicalResult RoundTrip::importManual(func::CallOp call) {
  auto isTarget = [](Operation *op, StringRef name) {
    auto custom = dyn_cast_or_null<hlo::CustomCallOp>(op);
    return custom && custom.getCallTargetName() == name;
  };
  Operation *toLocal = nullptr;
  for (Value operand : call.getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (!isTarget(def, "xla.sdy.GlobalToLocalShape") ||
        (toLocal && def != toLocal))
      return call.emitError("the operands of a manual computation body must "
                            "be the results of one "
                            "@xla.sdy.GlobalToLocalShape");
    toLocal = def;
  }
  if (toLocal && (toLocal->getNumResults() != call.getNumOperands() ||
                  !llvm::equal(toLocal->getResults(), call.getOperands())))
    return call.emitError("@xla.sdy.GlobalToLocalShape's results must be "
                          "the body's operands, in order");
  Operation *toGlobal = nullptr;
  for (Value result : call.getResults())
    for (Operation *user : result.getUsers()) {
      if (!isTarget(user, "xla.sdy.LocalToGlobalShape") ||
          (toGlobal && user != toGlobal))
        return call.emitError("the results of a manual computation body must "
                              "go to one @xla.sdy.LocalToGlobalShape");
      toGlobal = user;
    }
  if (call.getNumResults() &&
      (!toGlobal || toGlobal->getNumOperands() != call.getNumResults() ||
       !llvm::equal(toGlobal->getOperands(), call.getResults())))
    return call.emitError("@xla.sdy.LocalToGlobalShape's operands must be "
                          "the body's results, in order");
  SmallVector<Operation *> carriers{toLocal, toGlobal, call};
  auto ins = dyn_cast_or_null<sdy::TensorShardingPerValueAttr>(
      findManualAttr(carriers, "xla.sdy.in_shardings"));
  auto outs = dyn_cast_or_null<sdy::TensorShardingPerValueAttr>(
      findManualAttr(carriers, "xla.sdy.out_shardings"));
  auto axes = dyn_cast_or_null<sdy::ManualAxesAttr>(
      findManualAttr(carriers, "xla.sdy.manual_axes"));
  MLIRContext *ctx = module.getContext();
  if (!ins && call.getNumOperands() == 0)
    ins = sdy::TensorShardingPerValueAttr::get(ctx, {});
  if (!outs && call.getNumResults() == 0)
    outs = sdy::TensorShardingPerValueAttr::get(ctx, {});
  if (!ins || !outs || !axes)
    return call.emitError("a manual computation needs xla.sdy.in_shardings, "
                          "xla.sdy.out_shardings and xla.sdy.manual_axes");
  auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
  if (!callee || callee.isExternal())
    return call.emitError("calls ")
           << call.getCalleeAttr() << ", which has no body";

  b.setInsertionPoint(toGlobal ? toGlobal : call.getOperation());
  SmallVector<Value> globals = toLocal
                                   ? SmallVector<Value>(toLocal->getOperands())
                                   : SmallVector<Value>();
  SmallVector<Type> resultTypes;
  if (toGlobal)
    llvm::append_range(resultTypes, toGlobal->getResultTypes());
  auto manual = sdy::ManualComputationOp::create(b, call.getLoc(), resultTypes,
                                                 globals, ins, outs, axes);
  Block *body = b.createBlock(&manual.getBody());
  for (BlockArgument arg : callee.getArguments())
    body->addArgument(arg.getType(), arg.getLoc());
  sdy::ReturnOp::create(b, call.getLoc(),
                        cloneBody(b, callee, body->getArguments()));
  if (toGlobal) {
    toGlobal->replaceAllUsesWith(manual->getResults());
    toGlobal->erase();
  }
  call.erase();
  if (toLocal)
    toLocal->erase();
  // Body functions are no entry points, whatever their visibility: once
  // inlined everywhere they are dropped (imported alone, their collectives
  // would be outside a manual computation).
  if (SymbolTable::symbolKnownUseEmpty(callee, module))
    callee.erase();
  return success();
}

LogicalResult RoundTrip::run() {
  auto moduleFrontend = module->getAttrOfType<DictionaryAttr>(kFrontend);
  if (moduleFrontend) {
    DictionaryAttr rest;
    DictionaryAttr taken = takeRoundTrip(moduleFrontend, rest);
    if (failed(importMeshes(taken)))
      return failure();
    if (rest)
      module->setAttr(kFrontend, rest);
    else
      module->removeAttr(kFrontend);
  }
  for (auto func : module.getOps<func::FuncOp>())
    if (failed(importValueAttrs(func)))
      return failure();
  // Manual computations first (their bodies hold more round-trip ops), one
  // at a time: a nested one appears when its parent's body is inlined.
  for (int round = 0;; ++round) {
    func::CallOp body;
    module.walk([&](func::CallOp call) {
      if (call.getCallee().starts_with(kBodyPrefix)) {
        body = call;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (!body)
      break;
    if (round == 10000)
      return body.emitError("too many nested manual computations");
    if (failed(importManual(body)))
      return failure();
  }
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (op->hasAttr(kFrontend) ||
        (isa<hlo::CustomCallOp>(op) &&
         cast<hlo::CustomCallOp>(op).getCallTargetName().starts_with(kPrefix)))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    auto frontend = op->getAttrOfType<DictionaryAttr>(kFrontend);
    DictionaryAttr rest;
    DictionaryAttr taken = frontend ? takeRoundTrip(frontend, rest)
                                    : DictionaryAttr::get(module.getContext());
    if (rest)
      op->setAttr(kFrontend, rest);
    else
      op->removeAttr(kFrontend);
    auto call = dyn_cast<hlo::CustomCallOp>(op);
    if (call && call.getCallTargetName().starts_with(kPrefix) &&
        call.getCallTargetName() != "xla.sdy.FuncResultSharding")
      return op->emitError("custom_call @")
             << call.getCallTargetName()
             << " (a Shardy round-trip op) is not supported";
    if (failed(importOp(op, taken)))
      return failure();
  }
  return success();
}

LogicalResult Importer::importSdyRoundTrip() {
  return RoundTrip{module, OpBuilder(module.getContext())}.run();
}
