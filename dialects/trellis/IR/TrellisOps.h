//===- TrellisOps.h - Mesh and sharding ops ---------------------*- C++ -*-===//

#ifndef DIALECTS_TRELLIS_IR_TRELLISOPS_H
#define DIALECTS_TRELLIS_IR_TRELLISOPS_H

#include "dialects/trellis/IR/SubAxes.h"
#include "dialects/trellis/IR/TrellisDialect.h"
#include "dialects/trellis/Interfaces/ShardingRule.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "dialects/trellis/IR/TrellisOps.h.inc"

#endif // DIALECTS_TRELLIS_IR_TRELLISOPS_H
