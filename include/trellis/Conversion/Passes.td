//===- Passes.td - Trellis conversions ------------------------*- tablegen -*-===//

#ifndef TRELLIS_CONVERSION_PASSES_TD
#define TRELLIS_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def SpmdToRuntime : Pass<"spmd-to-runtime", "ModuleOp"> {
  let summary = "Lower spmd collectives in device functions to runtime calls";
  let description = [{
    Rewrites every collective in device functions (functions with
    `spmd.mesh`) into a call of the runtime's C ABI
    (`include/trellis/Runtime/TrellisRuntime.h`), still on tensors: the operand is
    exposed as a buffer with `bufferization.to_buffer`, the result is a fresh
    buffer wrapped by `bufferization.to_tensor`, so One-Shot Bufferize can
    run afterwards. `spmd.pvary` disappears, `spmd.axis_size` becomes a
    constant and `spmd.pscatter` a local `tensor.extract_slice`.

    Each collective gets a site number; the module's `spmd.sites` attribute
    lists, per site, the op, its source location and (for ppermute) its
    pairs, which the executor hands to the runtime for errors and traces.

    ```mlir
    %s = spmd.psum %z over ["j"] : tensor<2x32xf32>
    ```
    becomes
    ```mlir
    %in = bufferization.to_buffer %z read_only : tensor<2x32xf32> to memref<2x32xf32>
    %out = memref.alloc() {alignment = 64 : i64} : memref<2x32xf32>
    ...
    call @trellis_rt_all_reduce(%site, %axes, %dtype, %sum, %inp, %outp, %count)
        : (i64, i64, i32, i32, i64, i64, i64) -> ()
    %s = bufferization.to_tensor %out restrict writable : memref<2x32xf32> to tensor<2x32xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect", "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let options = [
    Option<"async", "async-ppermute", "bool", /*default=*/"false",
           "Lower spmd.ppermute to start/wait calls">,
  ];
}

def TrellisLinalgToKernels : Pass<"trellis-linalg-to-kernels", "ModuleOp"> {
  let summary = "Lower matmul-like linalg ops on buffers to Eigen kernels";
  let description = [{
    Replaces `linalg.matmul`, `linalg.batch_matmul` and every `linalg`
    contraction on memrefs (any operand layout, including transposed
    operands) by a call to `trellis_rt_matmul`, which runs Eigen's GEMM on
    strided views with one batch, M, N and K dimension each. A contraction
    with other dimensions is brought to that form: unit dimensions drop out;
    several dimensions of one class (batch, M, N or K) that lie nested in
    memory alike in every operand merge into one (`bsd,df->bsf` is one GEMM
    of (b*s) rows); the others become `scf.for` loops around the call, and
    a missing class is a dimension of size 1. Element types must agree and be
    f32, f64, i32 or i64 (or bf16/f16 into f32, below); anything else stays
    for the loop lowering, and a contraction of at least 64^3 multiply-adds
    left to loops is reported with a remark at its location.

    A matmul whose output buffer was just zeroed calls
    `trellis_rt_matmul_overwrite` (C = A * B) instead, and the zeroing goes:
    a `linalg.fill` of +0 into the whole buffer, or a `memref.copy` into it
    from a buffer that holds zeros there (filled with +0, and only read
    since, loops included). That copy is what bufferization makes of one
    zero tensor initialising several matmuls, as in every chunk of
    `spmd-collective-matmul`'s reduce-scatter loop; a zero buffer left with
    no reader is erased too. The output must be a `memref.alloc` in the
    matmul's block (fresh each time the block runs) with an identity
    layout, not read by the matmul itself, used first by the zeroing op and
    by nothing between it and the matmul. Results are the same up to the
    sign of an exactly-zero sum.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

def TrellisExplainShardings
    : Pass<"trellis-explain-shardings", "ModuleOp"> {
  let summary = "Say where each sharding came from and why each reshard is";
  let description = [{
    Propagates as `trellis-global-to-manual` does (inlining calls, explicit
    inference, `trellis-propagate`) and annotates every value with
    `trellis.sharding_origin`: per dimension, the argument, result,
    constraint, explicit type or shard_map spec its axes came from, how
    many ops they crossed and the last one. Then it partitions a copy of
    the module and prints, per function, every reshard the partitioner
    would insert: the value, its layout and the one wanted, the op it is
    moved for, the collectives and bytes per device, and where both
    shardings came from. The module it leaves is the annotated global one.

    ```
    // reshards @main (mesh @m, 4 devices)
    //   argument #0: [{"x"}, {}] # "}]" # [{ -> [{}, {"x"}] # "}]" # [{ for arith.addf at f.mlir:4:8: spmd.all_to_all, 384 B per device
    //     has:    dim 0 over x: argument #0 (given); dim 1 whole
    //     wanted: dim 0 whole; dim 1 over x: argument #1 through 1 op (last: arith.addf at f.mlir:4:8)
    //   total: 1 reshard, 384 B per device
    ```
  }];
}

def TrellisDecomposeAggregates
    : Pass<"trellis-decompose-aggregates", "func::FuncOp"> {
  let summary = "Rewrite aggregate linalg ops (softmax) into structured ops";
  let description = [{
    Ops of `linalg::AggregatedOpInterface` (`linalg.softmax`) have no loop
    lowering of their own: each is replaced by the structured ops it
    decomposes into (for softmax: a max reduction, `exp(x - max)`, a sum
    reduction and a division), which bufferize and lower like any other.
    An op that does not decompose fails the pass at its location.

    ```mlir
    %y = linalg.softmax dimension(1) ins(%x : tensor<2x16xf32>)
           outs(%e : tensor<2x16xf32>) -> tensor<2x16xf32>
    // becomes linalg.generic / linalg.fill ops computing the same
    ```
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "arith::ArithDialect", "math::MathDialect"];
}

def TrellisNormalizeSlices
    : Pass<"trellis-normalize-slices", "func::FuncOp"> {
  let summary = "Give slice dimensions of size 1 the stride 1";
  let description = [{
    The stride of a `tensor.extract_slice` or `tensor.insert_slice`
    dimension of size 1 does not change what is read or written, but it
    shapes the strided layout of the subview bufferization makes: a
    rank-reducing slice that drops a unit dimension with another stride
    gave a subview upstream's `expand-strided-metadata` crashed on. Such
    strides become 1, before bufferization.

    ```mlir
    %s = tensor.extract_slice %x[0, 1] [1, 1] [2, 1] : tensor<4x4xf64> to tensor<1xf64>
    // becomes
    %s = tensor.extract_slice %x[0, 1] [1, 1] [1, 1] : tensor<4x4xf64> to tensor<1xf64>
    ```
  }];
  let dependentDialects = ["tensor::TensorDialect"];
}

def TrellisCopyRepeatedResults
    : Pass<"trellis-copy-repeated-results", "func::FuncOp"> {
  let summary = "Give each returned tensor its own value before bufferization";
  let description = [{
    A function that returns one tensor value several times (a partitioned
    program yielding one block for two results, or an unpartitioned one
    returning a value twice) gets a copy (`linalg.copy` into a
    `tensor.empty`) for every repeat. Buffer results then become distinct
    out-parameters: `buffer-results-to-out-params` in LLVM 22 crashes on a
    buffer returned twice. Run it just before bufferization (CSE would merge
    the copies again).

    ```mlir
    return %v, %v : tensor<8xf32>, tensor<8xf32>
    // becomes
    %e = tensor.empty() : tensor<8xf32>
    %c = linalg.copy ins(%v : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    return %v, %c : tensor<8xf32>, tensor<8xf32>
    ```
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect"];
}

def TrellisApproximateMath : Pass<"trellis-approximate-math"> {
  let summary = "Replace f32 tanh, exp, log, erf and kin by polynomial approximations";
  let description = [{
    Rewrites `math.tanh`, `math.exp`, `math.expm1`, `math.log`,
    `math.log1p`, `math.log2`, `math.erf` and `math.erfc` on f32 (scalars
    or vectors) into arithmetic, with MLIR's polynomial approximations. The
    loops an elementwise `linalg.generic` becomes then hold no libm calls,
    and LLVM vectorizes them: seed 003's gelu on 512x256 f32 went from
    2.15 ms (a `tanhf` call per element) to 0.066 ms on the 2-core CI
    machine.

    Measured against float64 numpy over each function's f32 range
    (test/Execution/math/approximate-math.test): tanh 3.7 ulp, erf 3.2,
    erfc 1.9 where the result is a normal float, log1p 1.7, log 1.0 (at a
    subnormal input), log2 0.9, exp and expm1 within 1.4 except near
    overflow (4.8 ulp at x = 88.7). Upstream's exp flushes subnormal
    results to zero, and log and log2 misread subnormal inputs; this pass
    computes exp(x / 2)^2 below x = -87.33 (within 0.7 of a subnormal
    step) and scales subnormal log inputs by 2^24. erfc still flushes
    results below 1.2e-38 to zero, and erf(-0) is +0.

    sin, cos, atan, atan2 and cbrt are left to libm: their approximations
    measured up to 6e-6 absolute error (sin, cos at |x| = 100), 35 ulp
    (atan), 11 ulp (cbrt) and a wrong sign for atan2(-0, x < 0). f64, f16
    and bf16 ops are left alone, and so are ops on tensors (the lowering
    turns those into loops over scalars first).
    `trellis-run --exact-math` (pipeline option `approximate-math=false`)
    skips the pass.

    ```mlir
    %t = math.tanh %x : f32
    // becomes clamps, a rational polynomial in %x and an arith.select
    // for small |%x|, without a call
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def TrellisEraseMeshes : Pass<"trellis-erase-meshes", "ModuleOp"> {
  let summary = "Erase trellis.mesh declarations before translation to LLVM IR";
  let description = [{
    Once device functions are lowered to the LLVM dialect nothing refers to
    meshes any more; this drops the `trellis.mesh` ops (and the `spmd.mesh` /
    `spmd.manual_axes` function attributes naming them) so the module
    translates to LLVM IR.
  }];
}

def TrellisPartition : Pass<"trellis-partition", "ModuleOp"> {
  let summary = "Partition global-view functions into per-device shard_maps";
  let description = [{
    Turns every function whose values carry shardings (explicit types,
    `trellis.sharding` attributes from trellis-propagate, constraints and
    reshards) into one fully-manual `spmd.shard_map` on per-device shapes:
    the arguments' shardings become `in_specs`, the results' `out_specs`,
    and each op runs on the blocks its sharding rule says:

    * each factor of the op's rule gets the axes of the op's result
      sharding (reduction factors those of its operands); operands are
      resharded to match, and the op is emitted with local shapes;
    * a sharded reduction leaves partial sums: `spmd.psum`, or
      `spmd.psum_scatter` when the result is sharded over the reduced axes
      (seed 003's einsum with `out_sharding=P('X','Y')` is a local matmul
      and a reduce-scatter);
    * every change of layout is realised with the fewest collectives the
      Resharder knows: all_gather, local slices, all_to_all, ppermute.

    ```mlir
    // In[8@X,2048@Y] x W[2048@Y,8192] -> Out[8@X,8192] on a 4x2 mesh
    // becomes a local f32[2,1024] x f32[1024,8192] matmul and one psum.
    ```

    Functions without any sharding and functions that already are a fully
    manual shard_map are left alone.

    With `report-reshards`, it prints to stdout, per function, every
    reshard it inserted: the value moved, the layouts, the op it was moved
    for, the collectives and the bytes each device sends, and (after
    `trellis-propagate{explain}`) where the value's sharding and the op's
    came from.
  }];
  let options = [
    Option<"reportReshards", "report-reshards", "bool", /*default=*/"false",
           "Print every reshard inserted, with its layouts, cost and cause">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::spmd::SpmdDialect",
    "::mlir::tensor::TensorDialect", "::mlir::linalg::LinalgDialect"
  ];
}

def TrellisWidenAccumulation : Pass<"trellis-widen-accumulation"> {
  let summary = "Accumulate bf16 and f16 contractions and sums in f32";
  let description = [{
    A `linalg.matmul` or `linalg.batch_matmul` whose accumulator is bf16 or
    f16 accumulates in f32 and rounds once: the accumulator is extended to
    f32, the op reads its 16-bit operands into f32 products, and the result
    is truncated back (XLA's default for these types). A `linalg.reduce`
    whose body is one `arith.addf` on bf16 or f16 does the same. Without it
    every step of a long sum rounds to 8 (bf16) or 11 (f16) bits: a bf16
    matmul with K = 2048 was off by 2.5 at values near 25, and differed
    between the partitioned program (two shorter sums and a psum that
    accumulates in f32) and the unpartitioned one. docs/Precision.md gives
    the semantics of every op.

    The partitioned program and `--reference` both run this pass, so they
    follow the same rules.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

#endif // TRELLIS_CONVERSION_PASSES_TD
