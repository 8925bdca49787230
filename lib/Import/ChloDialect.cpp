//===- ChloDialect.cpp - Import-only CHLO subset --------------------------===//

#include "lib/Import/ImportDialects.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::trellis::chlo;

#include "lib/Import/ChloDialect.cpp.inc"
#define GET_OP_CLASSES
#include "lib/Import/ChloOps.cpp.inc"

void ChloDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "lib/Import/ChloOps.cpp.inc"
      >();
}
