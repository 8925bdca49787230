//===- HostArray.h - Arrays on the host: npy I/O, printing ------*- C++ -*-===//
//
// Dense row-major arrays that trellis-run reads, generates, slices into
// device blocks, and prints or writes back. No MLIR dependency.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_EXECUTION_HOSTARRAY_H
#define TRELLIS_LIB_EXECUTION_HOSTARRAY_H

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

/// Reads a `.npy` file (format 1.x/2.x/3.x, C order, little endian).
bool readNpy(const std::string &path, HostArray &array, std::string &error);
bool writeNpy(const std::string &path, const HostArray &array,
              std::string &error);

/// numpy-like text of the array (`print(np.array(...))`).
std::string formatArray(const HostArray &array);

/// Fills `array` (already allocated) with 0, 1, 2, ... in row-major order.
void fillIota(HostArray &array);
/// Fills `array` with deterministic pseudo-random values: uniform in
/// [-1, 1) for floats, integers in [-8, 8].
void fillRandom(HostArray &array, uint64_t seed);

struct Comparison {
  bool equal = true;
  int64_t mismatches = 0;
  double maxAbsError = 0;
  double maxRelError = 0;
  int64_t firstMismatch = -1;
  std::string describe(const HostArray &expected,
                       const HostArray &actual) const;
};

/// Compares element-wise: exactly for integers, within `rtol`/`atol` for
/// floats (|a - e| <= atol + rtol * |e|).
Comparison compareArrays(const HostArray &expected, const HostArray &actual,
                         double rtol, double atol);

} // namespace mlir::trellis::exec

#endif // TRELLIS_LIB_EXECUTION_HOSTARRAY_H
