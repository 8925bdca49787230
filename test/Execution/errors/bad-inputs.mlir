// Bad inputs give clear errors and a non-zero exit.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not trellis-run %s --input x=%t/missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: printf 'not a numpy file' > %t/bad.npy
// RUN: not trellis-run %s --input x=%t/bad.npy 2>&1 | FileCheck %s --check-prefix=MAGIC
// RUN: %python -c "import numpy as np; np.save('%t/shape.npy', np.zeros((3, 8), np.float32))"
// RUN: not trellis-run %s --input x=%t/shape.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: %python -c "import numpy as np; np.save('%t/dtype.npy', np.zeros((4, 8), np.int64))"
// RUN: not trellis-run %s --input x=%t/dtype.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: %python -c "import numpy as np; np.save('%t/fortran.npy', np.asfortranarray(np.zeros((4, 8), np.float32)))"
// RUN: not trellis-run %s --input x=%t/fortran.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// RUN: %python -c "import numpy as np; open('%t/short.npy', 'wb').write(open('%t/shape.npy', 'rb').read()[:-8])"
// RUN: not trellis-run %s --input x=%t/short.npy 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: not trellis-run %s --input y=%t/shape.npy 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not trellis-run %s --input nonsense 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not trellis-run %s --entry nothere 2>&1 | FileCheck %s --check-prefix=ENTRY

// MISSING: trellis-run: error: cannot open '{{.*}}missing.npy': No such file or directory
// MAGIC: trellis-run: error: '{{.*}}bad.npy' is not a .npy file (bad magic string)
// SHAPE: trellis-run: error: --input x={{.*}}shape.npy: the file holds float32[3,8] but argument x is float32[4,8]
// DTYPE: trellis-run: error: --input x={{.*}}dtype.npy: the file holds int64[4,8] but argument x is float32[4,8]
// FORTRAN: trellis-run: error: '{{.*}}fortran.npy': Fortran-order arrays are not supported
// SHORT: trellis-run: error: '{{.*}}short.npy': expected 96 bytes of data for shape (3, 8), the file is shorter
// NAME: trellis-run: error: --input y={{.*}}: @main has no argument named 'y'
// SYNTAX: trellis-run: error: --input expects NAME=FILE.npy, got 'nonsense'
// ENTRY: trellis-run: error: no function @nothere with a body in the module

trellis.mesh @mesh = <["i"=4]>

func.func @main(%x: tensor<4x8xf32> {trellis.name = "x"}) -> tensor<4x8xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]] (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%b: tensor<1x8xf32>):
    spmd.yield %b : tensor<1x8xf32>
  }
  return %r : tensor<4x8xf32>
}
