//===- OutlineDeviceFunc.cpp - shard_map bodies as device functions -------===//

#include "dialects/spmd/IR/SpmdOps.h"
#include "trellis/Transforms/Spmd/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDOUTLINEDEVICEFUNC
#include "trellis/Transforms/Spmd/Passes.h.inc"
} // namespace mlir::spmd

using namespace mlir;
using namespace mlir::spmd;

namespace {

/// Whether `op` makes every axis of its mesh manual.
bool isFullyManual(ShardMapOp op) {
  trellis::MeshOp mesh = op.getMeshOp();
  return mesh && op.getAllManualAxes().size() == mesh.getNumAxes();
}

struct OutlineDeviceFuncPass
    : spmd::impl::SpmdOutlineDeviceFuncBase<OutlineDeviceFuncPass> {
  using SpmdOutlineDeviceFuncBase::SpmdOutlineDeviceFuncBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> hosts;
    for (auto func : module.getOps<func::FuncOp>())
      if (entry.empty() || func.getSymName() == entry)
        hosts.push_back(func);
    if (!entry.empty() && hosts.empty()) {
      module.emitError() << "spmd-outline-device-func: no function named @"
                         << entry;
      return signalPassFailure();
    }

    SmallVector<func::FuncOp> created;
    for (func::FuncOp host : hosts) {
      if (host.isExternal() || host->hasAttr(SpmdDialect::kMeshAttrName))
        continue;
      SmallVector<ShardMapOp> maps;
      for (Operation &op : host.getBody().front())
        if (auto map = dyn_cast<ShardMapOp>(op))
          maps.push_back(map);
      unsigned index = 0;
      Operation *insertAfter = host;
      for (ShardMapOp map : maps) {
        if (!isFullyManual(map)) {
          if (!entry.empty()) {
            map.emitOpError("is not fully manual, so it has no per-device "
                            "program to outline (run trellis-partition "
                            "first)");
            return signalPassFailure();
          }
          continue;
        }
        std::string name = (host.getSymName() + "_device").str();
        if (maps.size() > 1)
          name += "_" + std::to_string(index);
        ++index;
        func::FuncOp device = outline(map, name, insertAfter);
        insertAfter = device;
        symbols.insert(device);
        map->setAttr(SpmdDialect::kDeviceFuncAttrName,
                     FlatSymbolRefAttr::get(device.getSymNameAttr()));
        created.push_back(device);
      }
    }

    // Host functions go, except those device code still calls (erasing
    // one left a call to nothing, which then failed verification).
    if (eraseHost) {
      SymbolTable symbols(module);
      llvm::SmallPtrSet<Operation *, 8> kept;
      SmallVector<Operation *> work;
      for (auto func : module.getOps<func::FuncOp>())
        if (func->hasAttr(SpmdDialect::kMeshAttrName) &&
            kept.insert(func).second)
          work.push_back(func);
      while (!work.empty()) {
        Operation *from = work.pop_back_val();
        if (auto uses = SymbolTable::getSymbolUses(from))
          for (const SymbolTable::SymbolUse &use : *uses)
            if (Operation *callee =
                    symbols.lookup(use.getSymbolRef().getRootReference()))
              if (isa<func::FuncOp>(callee) && kept.insert(callee).second)
                work.push_back(callee);
      }
      for (auto func :
           llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
        if (!kept.contains(func))
          func.erase();
    }
  }

  func::FuncOp outline(ShardMapOp map, StringRef name, Operation *after) {
    Block &body = map.getBodyBlock();
    Operation *yield = body.getTerminator();
    auto type = FunctionType::get(map.getContext(), body.getArgumentTypes(),
                                  yield->getOperandTypes());
    OpBuilder builder(map.getContext());
    builder.setInsertionPointAfter(after);
    auto device = func::FuncOp::create(builder, map.getLoc(), name, type);
    Builder b(map.getContext());
    device->setAttr(SpmdDialect::kMeshAttrName, map.getMeshAttr());
    SmallVector<Attribute> axes;
    for (StringAttr axis : map.getAllManualAxes())
      axes.push_back(axis);
    device->setAttr(SpmdDialect::kManualAxesAttrName, b.getArrayAttr(axes));
    device->setAttr("llvm.emit_c_interface", b.getUnitAttr());
    // The inputs belong to the host (the executor may hand every device a
    // view into the same global array): never write them in place.
    for (unsigned i = 0; i < device.getNumArguments(); ++i)
      device.setArgAttr(i, "bufferization.writable", b.getBoolAttr(false));

    IRMapping mapping;
    map.getBody().cloneInto(&device.getBody(), mapping);
    Block &entryBlock = device.getBody().front();
    Operation *clonedYield = entryBlock.getTerminator();
    OpBuilder ret(clonedYield);
    func::ReturnOp::create(ret, clonedYield->getLoc(),
                           clonedYield->getOperands());
    clonedYield->erase();
    return device;
  }
};

} // namespace
