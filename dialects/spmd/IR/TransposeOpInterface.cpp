//===- TransposeOpInterface.cpp - How a linear op transposes --------------===//

#include "dialects/spmd/IR/TransposeOpInterface.h"

#include "dialects/spmd/IR/TransposeOpInterface.cpp.inc"
