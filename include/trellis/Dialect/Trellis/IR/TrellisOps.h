//===- TrellisOps.h - Mesh and sharding ops ---------------------*- C++ -*-===//

#ifndef TRELLIS_DIALECT_TRELLIS_IR_TRELLISOPS_H
#define TRELLIS_DIALECT_TRELLIS_IR_TRELLISOPS_H

#include "trellis/Dialect/Trellis/IR/SubAxes.h"
#include "trellis/Dialect/Trellis/IR/TrellisDialect.h"
#include "trellis/Dialect/Trellis/Interfaces/ShardingRule.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "trellis/Dialect/Trellis/IR/TrellisOps.h.inc"

#endif // TRELLIS_DIALECT_TRELLIS_IR_TRELLISOPS_H
