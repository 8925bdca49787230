// A --passes pipeline that does not parse is reported, and nothing runs.
// RUN: not trellis-run %s --passes='no-such-pass' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not trellis-run %s --passes='spmd-collective-matmul{nonsense}' 2>&1 | FileCheck %s --check-prefix=OPTION
// UNKNOWN: trellis-run: error: invalid --passes pipeline 'no-such-pass': {{.*}}'no-such-pass' does not refer to a registered pass or pass pipeline
// OPTION: trellis-run: error: invalid --passes pipeline 'spmd-collective-matmul{nonsense}': {{.*}}no such option nonsense

trellis.mesh @mesh = <["i"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<2xf32>):
    spmd.yield %b : tensor<2xf32>
  }
  return %r : tensor<4xf32>
}
