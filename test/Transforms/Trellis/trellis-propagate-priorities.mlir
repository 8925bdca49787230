// Priorities on user shardings (`{"x"}p0`): propagation runs one round
// per priority, p0 first, then the dimensions without one; what an
// earlier round decided is only ever extended. Two arguments that both
// claim axis "x" for the sum's layout: the higher priority wins (without
// priorities the first in program order does).
// RUN: trellis-opt %s --split-input-file --trellis-propagate | FileCheck %s
// RUN: trellis-opt %s --split-input-file --trellis-global-to-manual --trellis-comm-report -o /dev/null | FileCheck %s --check-prefix=BYTES
// RUN: trellis-run %s --entry columns_first --random 1 --reference --quiet | FileCheck %s --check-prefix=EXEC
// RUN: trellis-run %s --entry rows_first --random 2 --reference --quiet | FileCheck %s --check-prefix=EXEC
// RUN: trellis-run %s --entry constraint_first --random 3 --reference --quiet | FileCheck %s --check-prefix=EXEC
// EXEC: reference: out0 (float32[16,32], 4 devices vs 1): match

trellis.mesh @m = <["x"=4]>

// The columns of %b have p0: the sum and its exp are split over columns,
// and %a (rows, p1) is moved to columns where they meet.
// CHECK-LABEL: func.func @columns_first
// CHECK-SAME: {trellis.sharding = #trellis.sharding<@m, [{"x"}p1, {}]>}
// CHECK-SAME: {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}p0]>}
// CHECK: arith.addf {{.*}} {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>}
// CHECK: math.exp {{.*}} {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>}
// BYTES: comm @columns_first
// BYTES-NEXT: loc("{{.*}}":[[@LINE+2]]:{{[0-9]+}}) spmd.all_to_all over ["x"]
// BYTES-NEXT: total: 1 collective
func.func @columns_first(%a: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}p1, {}]>},
                         %b: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}p0]>})
    -> tensor<16x32xf32> {
  %c = arith.addf %a, %b : tensor<16x32xf32>
  %d = math.exp %c : tensor<16x32xf32>
  return %d : tensor<16x32xf32>
}

// Swapped priorities: rows win, %b is moved.
// CHECK-LABEL: func.func @rows_first
// CHECK: arith.addf {{.*}} {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>}
// CHECK: math.exp {{.*}} {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>}
// BYTES: comm @rows_first
// BYTES-NEXT: loc("{{.*}}":[[@LINE+3]]:{{[0-9]+}}) spmd.all_to_all over ["x"]
// BYTES-NEXT: total: 1 collective
func.func @rows_first(%a: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}p0, {}]>},
                      %b: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}p1]>})
    -> tensor<16x32xf32> {
  %c = arith.addf %a, %b : tensor<16x32xf32>
  %d = math.exp %c : tensor<16x32xf32>
  return %d : tensor<16x32xf32>
}

// A constraint with p0 beats both arguments' unprioritized shardings,
// which propagate only in the last round.
// CHECK-LABEL: func.func @constraint_first
// CHECK: math.exp {{.*}} {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>}
// CHECK: trellis.sharding_constraint %{{.*}} to <@m, [{}, {"x"}p0]>
// CHECK: arith.addf {{.*}} {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>}
func.func @constraint_first(%a: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>},
                            %b: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>})
    -> tensor<16x32xf32> {
  %e = math.exp %a : tensor<16x32xf32>
  %k = trellis.sharding_constraint %e to <@m, [{}, {"x"}p0]> : tensor<16x32xf32>
  %c = arith.addf %k, %b : tensor<16x32xf32>
  return %c : tensor<16x32xf32>
}
