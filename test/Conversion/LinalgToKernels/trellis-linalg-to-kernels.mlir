// RUN: trellis-opt %s --trellis-linalg-to-kernels | FileCheck %s

// CHECK-DAG: func.func private @trellis_rt_matmul(i32, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)

// linalg.matmul on row-major buffers: batch 1, M=2, N=4, K=3; A row stride 3.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[F32:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[M:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[N:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[K:.*]] = arith.constant 3 : i64
// CHECK: call @trellis_rt_matmul(%[[F32]], %[[ONE]], %[[M]], %[[N]], %[[K]],
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  return
}

// A generic contraction with a transposed B (n, k) and a batch dimension.
// CHECK-LABEL: func.func @batched_transposed
// CHECK: %[[BATCH:.*]] = arith.constant 5 : i64
// CHECK: call @trellis_rt_matmul(%{{.*}}, %[[BATCH]],
// CHECK-NOT: linalg.generic
func.func @batched_transposed(%a: memref<5x2x3xf64>, %b: memref<5x4x3xf64>, %c: memref<5x2x4xf64>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                   affine_map<(b, m, n, k) -> (b, n, k)>,
                                   affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<5x2x3xf64>, memref<5x4x3xf64>) outs(%c : memref<5x2x4xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %acc, %p : f64
    linalg.yield %s : f64
  }
  return
}

// bf16 or f16 A and B into an f32 C (trellis-widen-accumulation's form, or
// a mixed linalg.matmul): the widening kernel, given the operands' type
// (bf16 = 4, f16 = 5) and whether it overwrites C.
// CHECK-LABEL: func.func @widening
// CHECK: %[[BF16:.*]] = arith.constant 4 : i32
// CHECK: %[[ACCUMULATE:.*]] = arith.constant 0 : i32
// CHECK: call @trellis_rt_matmul_widening(%[[BF16]], %[[ACCUMULATE]],
// CHECK: %[[F16:.*]] = arith.constant 5 : i32
// CHECK: %[[ACCUMULATE2:.*]] = arith.constant 0 : i32
// CHECK: call @trellis_rt_matmul_widening(%[[F16]], %[[ACCUMULATE2]],
// CHECK-NOT: linalg.
func.func @widening(%a: memref<2x3xbf16>, %b: memref<3x4xbf16>, %c: memref<2x4xf32>,
                    %d: memref<2x3xf16>, %e: memref<3x4xf16>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x3xbf16>, memref<3x4xbf16>) outs(%c : memref<2x4xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xw = arith.extf %x : bf16 to f32
    %yw = arith.extf %y : bf16 to f32
    %p = arith.mulf %xw, %yw : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.matmul ins(%d, %e : memref<2x3xf16>, memref<3x4xf16>) outs(%c : memref<2x4xf32>)
  return
}

// Mixed element types the kernels do not take (bf16 into f64) and a bf16
// product extended after the multiplication (it rounds each product to
// bf16, which the widening kernel would not) stay for the loop lowering.
// CHECK-LABEL: func.func @unsupported
// CHECK: linalg.matmul
// CHECK: linalg.generic
func.func @unsupported(%a: memref<2x3xbf16>, %b: memref<3x4xbf16>, %c: memref<2x4xf64>,
                       %w: memref<2x4xf32>) {
  linalg.matmul ins(%a, %b : memref<2x3xbf16>, memref<3x4xbf16>) outs(%c : memref<2x4xf64>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x3xbf16>, memref<3x4xbf16>) outs(%w : memref<2x4xf32>) {
  ^bb0(%p: bf16, %q: bf16, %acc: f32):
    %m = arith.mulf %p, %q : bf16
    %e = arith.extf %m : bf16 to f32
    %s = arith.addf %acc, %e : f32
    linalg.yield %s : f32
  }
  return
}

// A matmul into a buffer that was just zero-filled overwrites it instead of
// accumulating, and the fill goes.
// CHECK-LABEL: func.func @fill_then_matmul
// CHECK-NOT: linalg.fill
// CHECK: call @trellis_rt_matmul_overwrite(
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @fill_then_matmul(%a: memref<2x3xf32>, %b: memref<3x4xf32>) -> memref<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x4xf32>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  return %c : memref<2x4xf32>
}

// The same for integers, with unrelated ops between fill and matmul.
// CHECK-LABEL: func.func @fill_ops_between_matmul
// CHECK-NOT: linalg.fill
// CHECK: memref.copy %arg2, %arg3
// CHECK: call @trellis_rt_matmul_overwrite(
func.func @fill_ops_between_matmul(%a: memref<2x3xi32>, %b: memref<3x4xi32>,
                                   %x: memref<4xf32>, %y: memref<4xf32>) -> memref<2x4xi32> {
  %zero = arith.constant 0 : i32
  %c = memref.alloc() : memref<2x4xi32>
  linalg.fill ins(%zero : i32) outs(%c : memref<2x4xi32>)
  memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  linalg.matmul ins(%a, %b : memref<2x3xi32>, memref<3x4xi32>) outs(%c : memref<2x4xi32>)
  return %c : memref<2x4xi32>
}

// One zero-filled buffer copied into several accumulators (what
// bufferization makes of one zero tensor initialising several matmuls,
// here inside a loop too): each matmul overwrites its accumulator, the
// copies go, and so does the zero buffer once nothing reads it.
// CHECK-LABEL: func.func @zero_copies
// CHECK-NOT: linalg.fill
// CHECK: %[[C:.*]] = memref.alloc()
// CHECK-NOT: memref.copy
// CHECK: call @trellis_rt_matmul_overwrite(
// CHECK: scf.for
// CHECK: %[[D:.*]] = memref.alloc()
// CHECK-NOT: memref.copy
// CHECK: call @trellis_rt_matmul_overwrite(
// CHECK: memref.copy %[[D]], %arg2
// CHECK: memref.copy %[[C]], %arg2
// CHECK-NEXT: memref.dealloc %[[C]]
// CHECK-NEXT: return
func.func @zero_copies(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %out: memref<2x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%zero : f32) outs(%z : memref<2x4xf32>)
  %c = memref.alloc() : memref<2x4xf32>
  memref.copy %z, %c : memref<2x4xf32> to memref<2x4xf32>
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  scf.for %i = %c0 to %c4 step %c1 {
    %d = memref.alloc() : memref<2x4xf32>
    memref.copy %z, %d : memref<2x4xf32> to memref<2x4xf32>
    linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%d : memref<2x4xf32>)
    memref.copy %d, %out : memref<2x4xf32> to memref<2x4xf32>
    memref.dealloc %d : memref<2x4xf32>
  }
  memref.copy %c, %out : memref<2x4xf32> to memref<2x4xf32>
  memref.dealloc %c : memref<2x4xf32>
  memref.dealloc %z : memref<2x4xf32>
  return
}

// The zero buffer itself may end as the last accumulator (bufferization
// reuses it in place): the copies before still see zeros. (A zero buffer
// that escapes, by return or call, is left alone.)
// CHECK-LABEL: func.func @zero_buffer_reused
// CHECK-NOT: linalg.fill
// CHECK: call @trellis_rt_matmul_overwrite(
// CHECK: call @trellis_rt_matmul_overwrite(
// CHECK: memref.copy %{{.*}}, %arg2
// CHECK-NOT: memref.copy
// CHECK: return
func.func @zero_buffer_reused(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %out: memref<2x4xf32>) -> memref<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %z = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%zero : f32) outs(%z : memref<2x4xf32>)
  %c = memref.alloc() : memref<2x4xf32>
  memref.copy %z, %c : memref<2x4xf32> to memref<2x4xf32>
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%z : memref<2x4xf32>)
  memref.copy %z, %out : memref<2x4xf32> to memref<2x4xf32>
  memref.dealloc %z : memref<2x4xf32>
  return %c : memref<2x4xf32>
}

// Cases that must keep accumulating.
// CHECK-LABEL: func.func @must_accumulate
// A second matmul into the same buffer adds to the first.
// CHECK-NOT: linalg.fill
// CHECK: call @trellis_rt_matmul_overwrite(
// CHECK: call @trellis_rt_matmul(
// A fill of 1.0, and of -0.0 (-0.0 + x is not x when x is -0.0).
// CHECK: linalg.fill
// CHECK: call @trellis_rt_matmul(
// CHECK: linalg.fill
// CHECK: call @trellis_rt_matmul(
// A buffer read between fill and matmul keeps its fill.
// CHECK: linalg.fill
// CHECK: memref.copy
// CHECK: call @trellis_rt_matmul(
// An output that is a function argument (the caller may alias it).
// CHECK: linalg.fill
// CHECK: call @trellis_rt_matmul(
// A buffer whose address was taken before the fill.
// CHECK: memref.subview
// CHECK: linalg.fill
// CHECK: call @trellis_rt_matmul(
// A zero buffer written between its fill and the copy.
// CHECK: linalg.fill
// CHECK: linalg.fill
// CHECK: memref.copy
// CHECK: call @trellis_rt_matmul(
// A zero buffer with a view of it (writes through the view are not seen).
// CHECK: linalg.fill
// CHECK: memref.copy
// CHECK: call @trellis_rt_matmul(
// A zero buffer written inside the loop whose copies read it.
// CHECK: scf.for
// CHECK: memref.copy
// CHECK: call @trellis_rt_matmul(
// A fill in a loop around the matmul (an accumulation across iterations).
// CHECK: linalg.fill
// CHECK: scf.for
// CHECK: call @trellis_rt_matmul(
func.func @must_accumulate(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %arg: memref<2x4xf32>,
                           %out: memref<2x4xf32>, %n: index) {
  %zero = arith.constant 0.0 : f32
  %negzero = arith.constant -0.0 : f32
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%zero : f32) outs(%c2 : memref<2x4xf32>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c2 : memref<2x4xf32>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c2 : memref<2x4xf32>)
  memref.copy %c2, %out : memref<2x4xf32> to memref<2x4xf32>

  %ones = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%one : f32) outs(%ones : memref<2x4xf32>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%ones : memref<2x4xf32>)
  memref.copy %ones, %out : memref<2x4xf32> to memref<2x4xf32>
  %negs = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%negzero : f32) outs(%negs : memref<2x4xf32>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%negs : memref<2x4xf32>)
  memref.copy %negs, %out : memref<2x4xf32> to memref<2x4xf32>

  %read = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%zero : f32) outs(%read : memref<2x4xf32>)
  memref.copy %read, %out : memref<2x4xf32> to memref<2x4xf32>
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%read : memref<2x4xf32>)
  memref.copy %read, %out : memref<2x4xf32> to memref<2x4xf32>

  linalg.fill ins(%zero : f32) outs(%arg : memref<2x4xf32>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%arg : memref<2x4xf32>)

  %taken = memref.alloc() : memref<2x4xf32>
  %view = memref.subview %taken[0, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<1x4xf32, strided<[4, 1]>>
  linalg.fill ins(%zero : f32) outs(%taken : memref<2x4xf32>)
  linalg.fill ins(%one : f32) outs(%view : memref<1x4xf32, strided<[4, 1]>>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%taken : memref<2x4xf32>)
  memref.copy %taken, %out : memref<2x4xf32> to memref<2x4xf32>

  %z1 = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%zero : f32) outs(%z1 : memref<2x4xf32>)
  linalg.fill ins(%one : f32) outs(%z1 : memref<2x4xf32>)
  %d1 = memref.alloc() : memref<2x4xf32>
  memref.copy %z1, %d1 : memref<2x4xf32> to memref<2x4xf32>
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%d1 : memref<2x4xf32>)
  memref.copy %d1, %out : memref<2x4xf32> to memref<2x4xf32>

  %z2 = memref.alloc() : memref<2x4xf32>
  %z2view = memref.subview %z2[0, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<1x4xf32, strided<[4, 1]>>
  linalg.fill ins(%zero : f32) outs(%z2 : memref<2x4xf32>)
  linalg.fill ins(%one : f32) outs(%z2view : memref<1x4xf32, strided<[4, 1]>>)
  %d2 = memref.alloc() : memref<2x4xf32>
  memref.copy %z2, %d2 : memref<2x4xf32> to memref<2x4xf32>
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%d2 : memref<2x4xf32>)
  memref.copy %d2, %out : memref<2x4xf32> to memref<2x4xf32>

  %z3 = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%zero : f32) outs(%z3 : memref<2x4xf32>)
  scf.for %i = %c0 to %n step %c1 {
    %d3 = memref.alloc() : memref<2x4xf32>
    memref.copy %z3, %d3 : memref<2x4xf32> to memref<2x4xf32>
    linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%d3 : memref<2x4xf32>)
    memref.copy %d3, %out : memref<2x4xf32> to memref<2x4xf32>
    linalg.fill ins(%one : f32) outs(%z3 : memref<2x4xf32>)
  }

  %acc = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<2x4xf32>)
  scf.for %i = %c0 to %n step %c1 {
    linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%acc : memref<2x4xf32>)
  }
  memref.copy %acc, %out : memref<2x4xf32> to memref<2x4xf32>
  return
}

// More cases that must keep their zeroing.
// CHECK-LABEL: func.func @must_keep_zeroing
// The matmul reads its own output as A: the fill made A zero.
// CHECK: linalg.fill
// CHECK: call @trellis_rt_matmul(
// An output allocated outside the loop that fills and uses it: a pointer
// stashed in one iteration could write it before the next one's matmul.
// CHECK: scf.for
// CHECK: linalg.fill
// CHECK: call @poke
// CHECK: call @trellis_rt_matmul(
// An output whose rows share memory (row stride 0): accumulating adds
// every row's products, overwriting would keep the last.
// CHECK: linalg.fill
// CHECK: call @trellis_rt_matmul(
// CHECK: return
func.func private @poke()
func.func private @stash(memref<2x4xf32>)
func.func @must_keep_zeroing(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %b2: memref<2x2xf32>,
                             %n: index) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %self = memref.alloc() : memref<2x2xf32>
  linalg.fill ins(%zero : f32) outs(%self : memref<2x2xf32>)
  linalg.matmul ins(%self, %b2 : memref<2x2xf32>, memref<2x2xf32>) outs(%self : memref<2x2xf32>)
  call @stash2(%self) : (memref<2x2xf32>) -> ()

  %outside = memref.alloc() : memref<2x4xf32>
  scf.for %i = %c0 to %n step %c1 {
    linalg.fill ins(%zero : f32) outs(%outside : memref<2x4xf32>)
    func.call @poke() : () -> ()
    linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%outside : memref<2x4xf32>)
    func.call @stash(%outside) : (memref<2x4xf32>) -> ()
  }

  %shared = memref.alloc() : memref<2x4xf32, strided<[0, 1]>>
  linalg.fill ins(%zero : f32) outs(%shared : memref<2x4xf32, strided<[0, 1]>>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%shared : memref<2x4xf32, strided<[0, 1]>>)
  call @stash3(%shared) : (memref<2x4xf32, strided<[0, 1]>>) -> ()
  return
}
func.func private @stash2(memref<2x2xf32>)
func.func private @stash3(memref<2x4xf32, strided<[0, 1]>>)

// A contraction whose output has a parallel dimension of its own (d3) is
// not a matmul the kernel can run: it stays for the loop lowering.
// CHECK-LABEL: func.func @extra_output_dim
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK-NOT: trellis_rt_matmul
// CHECK: return
func.func @extra_output_dim(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %out: memref<2x4x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x4x5xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x4x5xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k, e) -> (m, k)>,
                                   affine_map<(m, n, k, e) -> (k, n)>,
                                   affine_map<(m, n, k, e) -> (m, n, e)>],
                  iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.copy %c, %out : memref<2x4x5xf32> to memref<2x4x5xf32>
  return
}

// Two M dimensions nested alike in A and C (bsd,df->bsf) merge into one of
// 3 * 5 = 15 rows: one call, no loop.
// CHECK-LABEL: func.func @merged_rows
// CHECK-DAG: %[[ROWS:.*]] = arith.constant 15 : i64
// CHECK-NOT: scf.for
// CHECK: call @trellis_rt_matmul_overwrite(%{{.*}}, %{{.*}}, %[[ROWS]],
// CHECK-NOT: linalg.generic
func.func @merged_rows(%a: memref<3x5x4xf32>, %b: memref<4x6xf32>) -> memref<3x5x6xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<3x5x6xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<3x5x6xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, s, f, d) -> (b, s, d)>,
                                   affine_map<(b, s, f, d) -> (d, f)>,
                                   affine_map<(b, s, f, d) -> (b, s, f)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<3x5x4xf32>, memref<4x6xf32>) outs(%c : memref<3x5x6xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return %c : memref<3x5x6xf32>
}

// Two K dimensions nested differently in A (d, h) and B (h, d): a loop over
// d around a call over h. The calls accumulate, so the zero fill stays.
// CHECK-LABEL: func.func @looped_reduction
// CHECK: linalg.fill
// CHECK: scf.for
// CHECK: call @trellis_rt_matmul(
// CHECK-NOT: linalg.generic
func.func @looped_reduction(%a: memref<5x4x3xf32>, %b: memref<3x4x6xf32>) -> memref<5x6xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<5x6xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<5x6xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, d, h) -> (m, d, h)>,
                                   affine_map<(m, n, d, h) -> (h, d, n)>,
                                   affine_map<(m, n, d, h) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<5x4x3xf32>, memref<3x4x6xf32>) outs(%c : memref<5x6xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return %c : memref<5x6xf32>
}

// Unit dimensions drop out: a plain 4x6x8 matmul.
// CHECK-LABEL: func.func @unit_dims
// CHECK-NOT: scf.for
// CHECK: call @trellis_rt_matmul(
func.func @unit_dims(%a: memref<4x1x1x8xf32>, %b: memref<8x1x6xf32>, %c: memref<4x1x1x6xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, x, y, n, k) -> (m, x, y, k)>,
                                   affine_map<(m, x, y, n, k) -> (k, y, n)>,
                                   affine_map<(m, x, y, n, k) -> (m, x, y, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x1x1x8xf32>, memref<8x1x6xf32>) outs(%c : memref<4x1x1x6xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
