//===- Passes.td - spmd dialect passes ------------------------*- tablegen -*-===//

#ifndef SPMD_TRANSFORMS_PASSES_TD
#define SPMD_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def SpmdOutlineDeviceFunc : Pass<"spmd-outline-device-func", "ModuleOp"> {
  let summary = "Outline fully-manual shard_map bodies into device functions";
  let description = [{
    For every `spmd.shard_map` that makes all axes of its mesh manual and sits
    directly in a function body, creates a function holding a copy of the
    body: the per-device program. The function takes and returns per-device
    tensors and carries `spmd.mesh` and `spmd.manual_axes`, so collectives in
    it keep their meaning. The shard_map is tagged with `spmd.device_func`
    naming it.

    Before:
    ```mlir
    func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
      %r = spmd.shard_map @mesh in_specs = [[{"i"}] # "}]" # [{] out_specs = [[{"i"}] # "}]" # [{]
          (%a) : (tensor<8xf32>) -> tensor<8xf32> {
      ^bb0(%b: tensor<2xf32>):
        %s = spmd.psum %b over ["i"] : tensor<2xf32>
        spmd.yield %s : tensor<2xf32>
      }
      return %r : tensor<8xf32>
    }
    ```
    After (with `erase-host`):
    ```mlir
    func.func @f_device(%b: tensor<2xf32>) -> tensor<2xf32>
        attributes {llvm.emit_c_interface, spmd.manual_axes = ["i"], spmd.mesh = @mesh} {
      %s = spmd.psum %b over ["i"] : tensor<2xf32>
      return %s : tensor<2xf32>
    }
    ```
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"\"",
           "Outline only the shard_map in this function (default: all)">,
    Option<"eraseHost", "erase-host", "bool", /*default=*/"false",
           "Erase every function that is not a device function">,
  ];
}

def SpmdCheckVariance : Pass<"spmd-check-variance", "ModuleOp"> {
  let summary = "Infer device-variance types, insert spmd.pvary, check out_specs";
  let description = [{
    Seed 001's device-variance typing, for the body of every `spmd.shard_map`
    and every device function (a function with `spmd.mesh`). Each value gets
    the set of manual axes it may vary over, and every ranked tensor type is
    annotated with it as `#spmd.vary<[...]>` (axes in mesh order):

    * a body argument varies over the axes of its in_spec (a device
      function's over those of its `#spmd.vary` encoding, else over all);
    * `spmd.axis_index` varies over its axes; constants, `tensor.empty`,
      `spmd.axis_size` are invariant;
    * other ops (arith, math, tensor, linalg including DPS `outs`) take the
      union of their operands, scalars included (scalars are tracked but
      carry no encoding);
    * collectives follow the design's table (`psum` removes its axes,
      `pvary`/`pscatter` add them, `all_gather`, `psum_scatter`,
      `all_to_all` and `ppermute` need and keep varying operands,
      `all_gather_invariant` makes invariant);
    * `scf.for`/`scf.while` iterate their carried values to a fixed point
      (varying bounds make the results vary); `scf.if` unifies its branches
      and its condition.

    Where an operand varies over fewer axes than its op needs (another
    operand, a loop-carried value, the other branch, a collective that
    needs varying operands), one `spmd.pvary` per value and axis set is
    inserted right after the value's definition. With
    `insert-pvary=false` each such place is an error instead (the seed's
    explicit mode).

    An output whose out_spec omits an axis the yielded value may vary over is
    rejected, naming the output, the axis and the fix, unless the shard_map
    says `check_vma = false`.

    Before:
    ```mlir
    // %x is split over "i" by its in_spec, %w is replicated
    ^bb0(%x: tensor<2xf32>, %w: tensor<2xf32>):
      %y = arith.mulf %x, %w : tensor<2xf32>
    ```
    After:
    ```mlir
    ^bb0(%x: tensor<2xf32, #spmd.vary<["i"]>>, %w: tensor<2xf32, #spmd.vary<[]>>):
      %w_i = spmd.pvary %w over ["i"] : tensor<2xf32, #spmd.vary<[]>> -> tensor<2xf32, #spmd.vary<["i"]>>
      %y = arith.mulf %x, %w_i : tensor<2xf32, #spmd.vary<["i"]>>
    ```
  }];
  let options = [
    Option<"insertPvary", "insert-pvary", "bool", /*default=*/"true",
           "Insert spmd.pvary where operands disagree (false: report an "
           "error there instead)">,
  ];
}

def SpmdTranspose : Pass<"spmd-transpose", "ModuleOp"> {
  let summary = "Transpose linear functions, collectives per seed 001";
  let description = [{
    For every function marked `spmd.transpose` (or named by `funcs`), builds
    its transpose `@<name><suffix>`. The function must be linear in its
    arguments except those marked `spmd.nonlinear` (which it may use in any
    way, e.g. as weights). The transpose takes the non-linear arguments and
    one cotangent per result, and returns one cotangent per linear argument:
    `<t(f)(w, y), x> = <y, f(w, x)>`.

    Rules: `arith` add/sub/neg, mul/div by a non-linear operand;
    `linalg.matmul` and other contractions with one linear operand (a
    matrix product stays a `linalg.matmul`, with transposed operands as
    indexing maps), `linalg.transpose`, `linalg.broadcast` ↔ sum
    `linalg.reduce`, `linalg.copy`; `tensor.extract_slice` ↔
    `tensor.insert_slice` into zeros, `expand_shape` ↔ `collapse_shape`,
    `tensor.concat` into slices; `arith.select` on a non-linear condition,
    `extf` <-> `truncf`; `scf.for` (run backwards, closed-over linear values
    accumulated in extra carried values, non-linear carried values saved per
    iteration when the trip count is constant); `scf.if` on a non-linear
    condition; `spmd.shard_map` (its specs swapped, its body transposed; the
    non-linear outputs of a mixed one computed by a forward copy); and the collectives per the design's table: `psum` ↔
    `pvary`, `all_gather` ↔ `psum_scatter`, `all_gather_invariant` ↔
    `pscatter`, `all_to_all` ↔ `all_to_all` (dimensions swapped),
    `ppermute` ↔ the inverse `ppermute`, `pmean` → `pvary` and a division.

    Device-variance types decide the shard_map's boundary: an output whose
    out_spec omits an axis is invariant there (the types prove it), so its
    cotangent needs no rescaling; an output that maps an axis its value is
    invariant over gets the psum of its copies' cotangents. Where types
    cannot prove invariance (`check_vma = false`) the cotangent is divided
    by the size of the omitted axes. The result is typed by
    `spmd-check-variance` (which inserts the pvarys it needs).

    With `naive`, psum transposes to psum, every unmapped output's cotangent
    is divided by the size of the omitted axes and unmapped inputs'
    cotangents are psummed: the behaviour seed 001 describes for JAX before
    device-variance types, kept to measure the difference.

    Example 1 of seed 001, `f1 = shmap(lambda x: psum(g(x), 'i'),
    in_specs=P('i'), out_specs=P())`, transposes into `pvary` followed by
    the transpose of `g`: no psum, no division.
  }];
  let options = [
    ListOption<"funcs", "funcs", "std::string",
               "Also transpose these functions (besides those marked "
               "spmd.transpose)">,
    Option<"naive", "naive", "bool", /*default=*/"false",
           "Transpose psum to psum with 1/N rescaling (JAX before "
           "device-variance types)">,
    Option<"suffix", "suffix", "std::string", /*default=*/"\"_t\"",
           "Name of the transpose: the function's name followed by this">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
  ];
}

def SpmdEraseVariance : Pass<"spmd-erase-variance", "ModuleOp"> {
  let summary = "Drop #spmd.vary encodings from all types";
  let description = [{
    Device-variance types are a static check; once a program has passed it,
    lowering works on plain tensors. This pass rewrites every value, block
    argument, function signature and attribute (the value of a tensor
    constant) to drop `#spmd.vary` encodings.
  }];
}

//===----------------------------------------------------------------------===//
// Collective matmul and asynchronous collectives (issue 7)
//===----------------------------------------------------------------------===//

def SpmdCollectiveMatmul : Pass<"spmd-collective-matmul", "ModuleOp"> {
  let summary = "Overlap all_gather / psum_scatter with the matmul they feed";
  let description = [{
    In manual regions (shard_map bodies and device functions), rewrites

    * `all_gather` feeding a `linalg.matmul` (the gathered operand is the lhs
      or the rhs, gathered along a non-contracting dimension — lhs rows, rhs
      columns — or along the contracting dimension), and
    * a `linalg.matmul` whose only use is a tiled `psum_scatter` along rows
      or columns

    into a loop over the `n` devices of the group: each step multiplies one
    chunk while the next chunk travels to the neighbour on the ring by
    `spmd.ppermute` (the collective matmul of seeds 000 and 003). Gathered
    chunks land in the result by `tensor.insert_slice` at
    `((axis_index + i) mod n) * chunk`, or, on the contracting dimension,
    accumulate against the rows of the other operand sliced at that offset.
    For `psum_scatter`, a partial-sum accumulator for output chunk
    `(axis_index - i - 1) mod n` circulates and each step adds this device's
    partial product; after `n` steps every device holds its own chunk,
    reduced over the group. Gathered chunks travel to the left neighbour
    (device j sends to j - 1, as in the seeds) and accumulators to the
    right one, so a gather and a scatter in flight together (the row blocks
    of `microbatches`) use opposite directions of each link. The transfer of step `i + 1` only depends on
    values of step `i`, so `spmd-async-collectives` can overlap it with the
    matmul.

    With `bidirectional`, every chunk is split in two halves of rows (so
    each is contiguous) that travel in opposite directions around the ring:
    each link carries half the bytes per step. Where the rows are not the
    gathered dimension, the halves split the result's rows (lhs contracting,
    psum_scatter along columns) or the contracting dimension (rhs
    columns). `unroll` emits the `n` steps as straight-line code instead
    of an `scf.for`. A pattern fires only when the bytes it would otherwise
    gather or scatter (the gathered operand, or the matmul result) reach
    `threshold-bytes`, as XLA's windowed-einsum threshold; `force` ignores the
    threshold. Patterns with dynamic shapes, a group of one device, other
    uses of the gathered value or of the matmul result are left alone; with
    `bidirectional`, chunks with an odd number of rows go unidirectional.

    With `microbatches=k` (k > 1), a chain of seed 003's FFN shape,
    `all_gather` of the lhs along its contracting dimension -> `linalg.matmul`
    -> elementwise `linalg.generic`s -> `linalg.matmul` (as lhs) ->
    `psum_scatter` along columns, all in one group, is first split into k
    blocks of rows (rows are independent all through it), each rewritten as
    above with its steps unrolled, and the steps of neighbouring blocks are
    interleaved with a skew: block b + 1's all-gather steps run alongside
    block b's middle (last chunk matmul, elementwise ops, first partial
    product) and its reduce-scatter steps, so that the link has transfers to
    carry while a block is between its two loops. Chains whose rows do not
    divide by k are rewritten without splitting.

    Before (seed 000's collective_matmul_allgather_lhs_non_contracting
    written naively):
    ```mlir
    %g = spmd.all_gather %lhs over ["i"] dim 0 tiled
        : tensor<512x2048xf32> -> tensor<4096x2048xf32>
    %c = linalg.matmul ins(%g, %rhs : tensor<4096x2048xf32>, tensor<2048x1024xf32>)
                       outs(%zeros : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
    ```
    After: the loop the seed writes by hand:
    ```mlir
    %loop:2 = scf.for %i = %c0 to %c7 step %c1 iter_args(%acc = %zeros, %l = %lhs) -> (...) {
      %update = linalg.matmul ins(%l, %rhs ...) outs(%z ...) -> tensor<512x1024xf32>
      %next = spmd.ppermute %l over ["i"] pairs [[0, 7], [1, 0], ..., [7, 6]}] # "]" # [{ : tensor<512x2048xf32>
      %s = arith.addi %idx, %i : index
      %m = arith.remui %s, %c8 : index
      %row = arith.muli %m, %c512 : index
      %u = tensor.insert_slice %update into %acc[%row, 0] [512, 1024] [1, 1] : ...
      scf.yield %u, %next : ...
    }
    // the last chunk, without the ppermute
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
  let options = [
    Option<"bidirectional", "bidirectional", "bool", /*default=*/"false",
           "Send half of every chunk each way around the ring">,
    Option<"unroll", "unroll", "bool", /*default=*/"false",
           "Emit the steps as straight-line code instead of an scf.for">,
    Option<"thresholdBytes", "threshold-bytes", "int64_t",
           /*default=*/"1048576",
           "Rewrite only when the gathered operand (or the matmul result "
           "before psum_scatter) has at least this many bytes">,
    Option<"force", "force", "bool", /*default=*/"false",
           "Rewrite every match, whatever its size">,
    Option<"microbatches", "microbatches", "int64_t", /*default=*/"1",
           "Split an all_gather -> matmul -> elementwise -> matmul -> "
           "psum_scatter chain into this many row blocks and interleave "
           "their unrolled steps (see docs/CollectiveMatmul.md)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Report each rewrite as a remark at the collective it rewrote">,
  ];
}

def SpmdAsyncCollectives : Pass<"spmd-async-collectives", "ModuleOp"> {
  let summary = "Split ppermutes into start/wait and schedule them for overlap";
  let description = [{
    Replaces every `spmd.ppermute` in a manual region by
    `spmd.ppermute_start` + `spmd.ppermute_wait` and, with `schedule` (the
    default), moves each start as early and each wait as late in its block
    as dependences allow: a start goes right after the op defining its
    operand (and never above an earlier start or an op that contains
    communication, so starts keep their order), a wait right before the
    first op that uses its result. In the loops `spmd-collective-matmul`
    builds, the transfer of the next chunk then overlaps the matmul of the
    current one.

    Moving a start earlier or a wait later cannot create a deadlock: a start
    never blocks, and every device runs the same schedule, so the k-th start
    of a group is the same op on every device. Synchronous collectives keep
    their places.

    With `kinds=all`, `spmd.all_gather`, `spmd.psum_scatter`, `spmd.psum`
    and `spmd.all_to_all` are split too, into `spmd.all_gather_start` (and
    so on) + `spmd.collective_wait`, and scheduled the same way: an
    all-gather of weights started before the compute that does not need
    them overlaps it. The runtime starts the collective once every member
    of its group has started it (docs/Overlap.md).

    ```mlir
    %u = linalg.matmul ins(%l, %r ...) ...
    %next = spmd.ppermute %l over ["i"] pairs [...] : tensor<512x2048xf32>
    ```
    becomes
    ```mlir
    %f = spmd.ppermute_start %l over ["i"] pairs [...]
           : tensor<512x2048xf32> -> !spmd.future<tensor<512x2048xf32>>
    %u = linalg.matmul ins(%l, %r ...) ...
    ...
    %next = spmd.ppermute_wait %f : !spmd.future<tensor<512x2048xf32>>
    scf.yield %acc, %next : ...
    ```
  }];
  let options = [
    Option<"schedule", "schedule", "bool", /*default=*/"true",
           "Hoist starts and sink waits (otherwise they stay adjacent)">,
    Option<"kinds", "kinds", "std::string", /*default=*/"\"ppermute\"",
           "Which collectives to split: `ppermute`, or `all` (ppermute, "
           "all_gather, psum_scatter, psum and all_to_all, the last four "
           "into their `_start` op + `spmd.collective_wait`)">,
  ];
}

def SpmdChunkAllToAll : Pass<"spmd-chunk-all-to-all", "ModuleOp"> {
  let summary = "Split all_to_alls into chunks pipelined with the compute they feed";
  let description = [{
    In manual regions, an `spmd.all_to_all` whose result feeds compute that
    is independent along one of its other dimensions (neither `split_dim`
    nor `concat_dim`) is split into `chunks` all_to_alls of slices along
    that dimension, and the ops it feeds are cloned once per chunk with
    that dimension `chunks` times smaller: the capacity dimension of a
    Mixture-of-Experts dispatch, through the expert matmul, to the
    all_to_all that sends the results back (XLA's all-to-all + matmul
    decomposition). Run `spmd-async-collectives{kinds=all}` afterwards:
    every dispatch chunk starts at once, chunk j + 1 travels while chunk
    j's experts compute, and chunk j's combine travels while chunk j + 1's
    compute.

    The ops cloned per chunk are those that follow the all_to_all in its
    block and read a chunked value, up to the first one that cannot be
    chunked: `tensor.collapse_shape` and `tensor.expand_shape` (a
    dimension collapsed with others, `[e, c, d] -> [e * c, d]`, may only be
    expanded back along the same factors), linalg ops on tensors whose
    chunked operands all map the chunk dimension to one parallel loop that
    nothing else reads (except inits that are `tensor.empty` or a
    `linalg.fill` of one, rebuilt per chunk) and whose body does not read
    its index, elementwise ops on chunked tensors, and further all_to_alls
    along other dimensions. A linalg op that reduces chunked values along
    the chunk loop (the combine einsum, summing over the capacity slots)
    ends the chain instead: it runs once per chunk, on the chunk and on the
    slices of its other operands along that loop, each chunk accumulating
    into the previous one's result (the first into the original init),
    when its body combines each accumulator, read nowhere else, with a
    value computed without it by `arith.addf`, `addi`, `maximumf`,
    `minimumf`, `maxnumf`, `minnumf`, `maxsi`, `minsi`, `maxui`, `minui`,
    `andi`, `ori` or `xori` (splitting the loop reorders the updates:
    floating-point sums are reassociated). Values used after the chain are
    put back together from their chunks with `tensor.insert_slice`. The
    ops that compute the
    all_to_all's operand and nothing else (each with one result, read
    once) are chunked too, by the same rules followed backwards, so that
    chunk j leaves as soon as it is computed; what they read along the
    chunk from elsewhere is sliced per chunk. The dimension with the
    most compute after it is chosen; an all_to_all that feeds no compute,
    has dynamic shapes, or sends each member of its group a block (the
    operand's bytes over the group size) of fewer than `threshold-bytes`
    (64 KiB) is left alone, as are tensors with a dimension of size 0 or
    a sharding in their type (chunks would change the shape it
    describes). `chunks=0` (the default) chooses the count per all_to_all
    from that block: one chunk per 64 KiB, at least 2 and at most 8
    (measured in virtual time on 8 devices, docs/Overlap.md).
    The count is lowered to the largest one up to it that divides the
    dimension.

    ```mlir
    %r = spmd.all_to_all %d over ["X"] split 0 concat 0 : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
    %f = tensor.collapse_shape %r [[0, 1], [2]] : tensor<4x8x16xf32> into tensor<32x16xf32>
    %y = linalg.matmul ins(%f, %w : ...) outs(%zeros : tensor<32x8xf32>) -> tensor<32x8xf32>
    ```
    becomes, with `chunks=2`, two all_to_alls of `tensor<4x4x16xf32>`
    slices of `%d` (capacity rows 0-3 and 4-7), each collapsed to 16 rows
    and multiplied by `%w` into a `tensor<16x8xf32>`.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"
  ];
  let options = [
    Option<"chunks", "chunks", "int64_t", /*default=*/"0",
           "How many chunks to split each all_to_all into, 2 to 64 (0: one "
           "per 64 KiB of the block sent to each member, 2 to 8)">,
    Option<"thresholdBytes", "threshold-bytes", "int64_t",
           /*default=*/"65536",
           "Chunk only all_to_alls that send each member of their group "
           "at least this many bytes (measured: docs/Overlap.md)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Report each rewrite as a remark at the collective it rewrote">,
  ];
}

def SpmdPipelineCollectives : Pass<"spmd-pipeline-collectives", "ModuleOp"> {
  let summary = "Prefetch gathers and defer accumulated collectives in loops";
  let description = [{
    Collective pipelining across loop iterations (the layer loop of FSDP):
    in an `scf.for` with constant bounds and at least two iterations, an
    `spmd.all_gather` whose operand is computed from the induction variable
    and values defined outside the loop only (a slice of stacked weights,
    typically) is started one iteration ahead. The gather of the first
    iteration starts before the loop; each iteration waits for its own
    (`spmd.collective_wait` on a future carried in the loop) and starts the
    next one's at its top; the last iteration is peeled so that nothing is
    gathered twice. Compute of iteration k then overlaps the gather of
    k + 1, at the cost of holding two gathered operands at once.

    ```mlir
    scf.for %l = %c0 to %c4 step %c1 iter_args(%h = %x) -> (tensor<8x64xf32>) {
      %ws = tensor.extract_slice %wb[%l, 0, 0] [1, 8, 64] [1, 1, 1] : ...
      %w = spmd.all_gather %ws over ["d"] dim 0 tiled : tensor<8x64xf32> -> tensor<64x64xf32>
      ...
    }
    ```
    becomes a start of layer 0's gather, a loop over layers 0..2 whose body
    starts layer l + 1's gather and waits for layer l's, and layer 3's
    body after it.

    The other direction, for the backward loop of a training step: a
    `spmd.psum_scatter`, `spmd.psum`, `spmd.all_gather` or
    `spmd.all_to_all` whose result is only accumulated into loop-carried
    values (everything it reaches, and every reader of what it yields, is
    free of memory effects and ends in the `scf.yield`) is waited for one
    iteration late: iteration k starts it, iteration k + 1 waits for it
    just before starting its own and accumulates it, the first iteration
    is peeled and the last accumulation follows the loop. Layer k's
    gradient reduce-scatter then overlaps layer k - 1's backward compute.

    Bounds must fold to constants (`(4 - 0) ceildiv 1`, as trellis-grad
    writes them, is folded). Other collectives keep their places; run
    `spmd-async-collectives{kinds=all}` afterwards to overlap them too.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Report each rewrite as a remark at the collective it rewrote">,
  ];
}

#endif // SPMD_TRANSFORMS_PASSES_TD
