//===- trellis-run.cpp - Run a Trellis program on a simulated mesh --------===//

#include "trellis/Execution/RunMain.h"

int main(int argc, char **argv) {
  return mlir::trellis::exec::runMain(argc, argv);
}
