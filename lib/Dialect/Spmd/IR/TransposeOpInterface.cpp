//===- TransposeOpInterface.cpp - How a linear op transposes --------------===//

#include "trellis/Dialect/Spmd/IR/TransposeOpInterface.h"

#include "trellis/Dialect/Spmd/IR/TransposeOpInterface.cpp.inc"
