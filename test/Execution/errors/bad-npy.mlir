// Malformed or oversized .npy files and bad option values: a clean error
// and a non-zero exit, never a crash, an out-of-memory abort, or a large
// allocation before the file is checked.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/bad_npy.py %t
// RUN: trellis-run %s --input x=%t/good.npy | FileCheck %s --check-prefix=GOOD
// RUN: not trellis-run %s --input x=%t/huge.npy 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not trellis-run %s --input x=%t/billion.npy 2>&1 | FileCheck %s --check-prefix=BILLION
// RUN: not trellis-run %s --input x=%t/overflow.npy 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// RUN: not trellis-run %s --input x=%t/letters.npy 2>&1 | FileCheck %s --check-prefix=LETTERS
// RUN: not trellis-run %s --input x=%t/maybe.npy 2>&1 | FileCheck %s --check-prefix=MAYBE
// RUN: not trellis-run %s --input x=%t/trailing.npy 2>&1 | FileCheck %s --check-prefix=TRAILING
// RUN: not trellis-run %s --input x=%t/cut.npy 2>&1 | FileCheck %s --check-prefix=CUT
// RUN: not trellis-run %s --timeout -1 2>&1 | FileCheck %s --check-prefix=TIMEOUT
// RUN: not trellis-run %s --timeout nan 2>&1 | FileCheck %s --check-prefix=TIMEOUT
// RUN: not trellis-run %s --timeout inf 2>&1 | FileCheck %s --check-prefix=TIMEOUT
// RUN: not trellis-run %s --repeat -3 2>&1 | FileCheck %s --check-prefix=REPEAT
// RUN: not trellis-run %s --repeat 0 2>&1 | FileCheck %s --check-prefix=REPEAT
// RUN: not trellis-run %s --warmup -1 2>&1 | FileCheck %s --check-prefix=WARMUP
// RUN: not trellis-run %s --link-latency-us nan 2>&1 | FileCheck %s --check-prefix=LINK
// RUN: not trellis-run %s --entry huge 2>&1 | FileCheck %s --check-prefix=BIGARG
// RUN: not trellis-run %s --entry overflowing 2>&1 | FileCheck %s --check-prefix=BIGARG2
// RUN: not trellis-run %s --entry many_devices 2>&1 | FileCheck %s --check-prefix=DEVICES

// GOOD: [0. 1. 2. 3.]
// HUGE: trellis-run: error: '{{.*}}huge.npy': expected 4398046511104 bytes of data for shape (1099511627776,), the file is shorter
// BILLION: trellis-run: error: '{{.*}}billion.npy': expected 4000000000 bytes of data for shape (1000000000,), the file is shorter
// OVERFLOW: trellis-run: error: '{{.*}}overflow.npy': shape (4294967296, 4294967296) is too large
// LETTERS: trellis-run: error: '{{.*}}letters.npy': malformed dimension 'abc' in shape (4, abc, 8)
// MAYBE: trellis-run: error: '{{.*}}maybe.npy': malformed header: 'fortran_order' must be True or False, got 'Maybe'
// TRAILING: trellis-run: error: '{{.*}}trailing.npy': 4 bytes follow the 16 bytes of data for shape (4,)
// CUT: trellis-run: error: '{{.*}}cut.npy': truncated header
// TIMEOUT: trellis-run: error: --timeout must be a finite number of seconds, 0 (no limit) or more
// REPEAT: trellis-run: error: --repeat must be 1 or more
// WARMUP: trellis-run: error: --warmup must be 0 or more, got -1
// LINK: trellis-run: error: --link-latency-us and --link-bandwidth-gbps must be finite and not negative
// BIGARG: trellis-run: error: argument arg0 has type tensor<1152921504606846976xf32>: 4611686018427387904 bytes, more than the memory this process may use
// BIGARG2: trellis-run: error: argument arg0 has type tensor<4294967296x4294967296xf32>: more than 2^63 bytes, more than the memory this process may use
// DEVICES: trellis-run: error: the mesh has 65536 devices; the threads backend simulates at most 4096 (one thread each): use --backend=mpi

func.func @main(%x: tensor<4xf32> {trellis.name = "x"}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @huge(%x: tensor<1152921504606846976xf32>) -> tensor<1152921504606846976xf32> {
  return %x : tensor<1152921504606846976xf32>
}

func.func @overflowing(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  return %x : tensor<4294967296x4294967296xf32>
}

trellis.mesh @big = <["a"=65536]>
func.func @many_devices(%x: tensor<65536xf32> {trellis.sharding = #trellis.sharding<@big, [{"a"}]>}) -> tensor<65536xf32> {
  return %x : tensor<65536xf32>
}
