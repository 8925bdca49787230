//===- HostArray.h - Arrays on the host: npy I/O, printing ------*- C++ -*-===//
//
// Dense row-major arrays that trellis-run reads, generates, slices into
// device blocks, and prints or writes back. No MLIR dependency. Element
// access in HostArray.cpp, .npy files in NpyIO.cpp, printing in
// ArrayPrinter.cpp, generated inputs in ArrayGeneration.cpp, comparison in
// ArrayComparison.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_EXECUTION_HOSTARRAY_H
#define TRELLIS_EXECUTION_HOSTARRAY_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::trellis::exec {

struct HostArray {
  int32_t dtype = 0; ///< TRELLIS_RT_* code
  std::vector<int64_t> shape;
  std::vector<char> data;

  int64_t numElements() const;
  int64_t elementBytes() const;
  void allocate(int32_t dtype, std::vector<int64_t> shape);
  /// Element `i` converted to double (for comparisons and printing).
  double at(int64_t i) const;
  void set(int64_t i, double value);
  bool isFloat() const;
};

/// numpy's descr string (`<f4`, `<i8`, ...) of a dtype, or "".
std::string npyDescr(int32_t dtype);
/// The Python/numpy name (`float32`, `int64`, ...).
std::string numpyName(int32_t dtype);
/// numpy's text of a shape: (2, 3), (4,), ().
std::string npyShapeText(const std::vector<int64_t> &shape);

/// Reads a `.npy` file (format 1.x/2.x/3.x, C order, little endian).
llvm::Expected<HostArray> readNpy(const std::string &path);

/// A block of a global array: what one device (one MPI rank) reads.
struct NpyBlock {
  std::string what; ///< for errors, e.g. "argument x"
  int32_t dtype = 0;
  std::vector<int64_t> globalShape, offset, blockShape;
};
/// Reads only `want`'s block of a `.npy` file (one seek and read per
/// contiguous run), after checking the file's dtype and shape.
llvm::Expected<HostArray> readNpyBlock(const std::string &path,
                                       const NpyBlock &want);
llvm::Error writeNpy(const std::string &path, const HostArray &array);

/// numpy-like text of the array (`print(np.array(...))`).
std::string formatArray(const HostArray &array);

/// Fills `array` (already allocated) with 0, 1, 2, ... in row-major order.
void fillIota(HostArray &array);
/// Fills `array` with deterministic pseudo-random values: uniform in
/// [-1, 1) for floats, integers in [-8, 8].
/// Values depend only on the seed and the element's row-major index
/// (counter-based), so blocks can be generated independently.
void fillRandom(HostArray &array, uint64_t seed);
/// Fills `block` (allocated with its block shape) with the values fillIota
/// (random = false) or fillRandom would give the elements at `offset` of
/// an array of `globalShape`.
void fillBlock(HostArray &block, const std::vector<int64_t> &globalShape,
               const std::vector<int64_t> &offset, bool random, uint64_t seed);

struct Comparison {
  bool equal = true;
  int64_t mismatches = 0;
  double maxAbsError = 0;
  double maxRelError = 0;
  int64_t firstMismatch = -1;
  std::string describe(const HostArray &expected,
                       const HostArray &actual) const;
};

/// The default tolerance of --reference for a float type: `rtol`, and
/// `atol` as a multiple of the largest expected magnitude. Two ulps
/// (relative to 1) for bf16 and f16, whose partitioned sums round their
/// partial results once more than the unpartitioned ones
/// (docs/Precision.md); 1e-4 and 1e-5 for f32 and f64.
struct Tolerance {
  double rtol;
  double atolScale;
};
Tolerance defaultTolerance(int32_t dtype);

/// "2, 7" for the element at row-major index `index` of `shape`.
std::string elementIndexText(const std::vector<int64_t> &shape,
                             int64_t index);

/// Compares element-wise: exactly for integers, within `rtol`/`atol` for
/// floats (|a - e| <= atol + rtol * |e|).
Comparison compareArrays(const HostArray &expected, const HostArray &actual,
                         double rtol, double atol);

} // namespace mlir::trellis::exec

#endif // TRELLIS_EXECUTION_HOSTARRAY_H
