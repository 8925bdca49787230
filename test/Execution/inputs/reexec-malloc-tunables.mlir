// trellis-run runs itself again once, with glibc's malloc tunables added
// (huge pages for its heaps; see docs/Design.md), when transparent huge
// pages are in madvise mode, unless GLIBC_TUNABLES has malloc tunables of
// the user's, TRELLIS_RUN_NO_REEXEC is set or an argument is a response
// file. The re-executed process must see the same arguments (one with a
// space in it) and the same stdin, and compute the same result: iota(2x4)
// = [[0 1 2 3] [4 5 6 7]] split by columns over 2 devices, each summing its
// block's rows, psum adding the blocks: [0+4+2+6, 1+5+3+7] = [12, 16].
// RUN: rm -rf "%t" && mkdir -p "%t/out dir"
// RUN: env -u GLIBC_TUNABLES -u TRELLIS_RUN_NO_REEXEC trellis-run - --iota --output-dir "%t/out dir" --print --print-process-setup < %s 2>&1 | FileCheck %s --check-prefixes=CHECK,%if thp-madvise %{REEXEC%} %else %{ONE%}
// RUN: test -f "%t/out dir/out0.npy"
// Other tunables of the user's are kept, ours added.
// RUN: env -u TRELLIS_RUN_NO_REEXEC GLIBC_TUNABLES=glibc.pthread.rseq=1 trellis-run - --iota --print --print-process-setup < %s 2>&1 | FileCheck %s --check-prefixes=CHECK,%if thp-madvise %{REEXEC%} %else %{ONE%}
// RUN: env TRELLIS_RUN_NO_REEXEC=1 trellis-run - --iota --print --print-process-setup < %s 2>&1 | FileCheck %s --check-prefixes=CHECK,ONE
// RUN: env -u TRELLIS_RUN_NO_REEXEC GLIBC_TUNABLES=glibc.malloc.check=0 trellis-run - --iota --print --print-process-setup < %s 2>&1 | FileCheck %s --check-prefixes=CHECK,ONE
// RUN: echo "--iota --print --print-process-setup" > %t/args
// RUN: env -u GLIBC_TUNABLES -u TRELLIS_RUN_NO_REEXEC trellis-run %s @%t/args 2>&1 | FileCheck %s --check-prefixes=CHECK,ONE
// REEXEC: re-executed with malloc tunables: yes
// ONE: re-executed with malloc tunables: no
// CHECK: out0: float32[2]
// CHECK-NEXT: [12. 16.]

trellis.mesh @mesh = <["i"=2]>

func.func @main(%x: tensor<2x4xf32>) -> tensor<2xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{}, {"i"}]] out_specs = [[{}]] check_vma = false
      (%x) : (tensor<2x4xf32>) -> tensor<2xf32> {
  ^bb0(%b: tensor<2x2xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
    %s = linalg.reduce ins(%b : tensor<2x2xf32>) outs(%z : tensor<2xf32>) dimensions = [0]
      (%v: f32, %acc: f32) {
        %a = arith.addf %v, %acc : f32
        linalg.yield %a : f32
      }
    %t = spmd.psum %s over ["i"] : tensor<2xf32>
    spmd.yield %t : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
