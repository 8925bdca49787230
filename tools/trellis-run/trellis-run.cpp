//===- trellis-run.cpp - Run a Trellis program on a simulated mesh --------===//

#include "lib/Execution/RunMain.h"

int main(int argc, char **argv) {
  return mlir::trellis::exec::runMain(argc, argv);
}
