//===- MemrefCopy.cpp - Strided copies between memrefs --------------------===//

#include <cstdint>
#include <cstring>
#include <vector>

extern "C" {

/// Strided copy between two memrefs of any rank; the symbol the upstream
/// memref-to-LLVM lowering calls for copies it cannot do with memcpy.
struct UnrankedDescriptor {
  int64_t rank;
  void *descriptor;
};

void memrefCopy(int64_t elemSize, UnrankedDescriptor *src,
                UnrankedDescriptor *dst) {
  int64_t rank = src->rank;
  auto *s = static_cast<int64_t *>(src->descriptor);
  auto *d = static_cast<int64_t *>(dst->descriptor);
  char *sData = reinterpret_cast<char *>(s[1]) + s[2] * elemSize;
  char *dData = reinterpret_cast<char *>(d[1]) + d[2] * elemSize;
  if (rank == 0) {
    std::memcpy(dData, sData, elemSize);
    return;
  }
  const int64_t *sizes = s + 3;
  const int64_t *sStrides = s + 3 + rank;
  const int64_t *dStrides = d + 3 + rank;
  int64_t total = 1;
  for (int64_t i = 0; i < rank; ++i)
    total *= sizes[i];
  if (total == 0)
    return;
  // Copy runs of the innermost dimension with memcpy when both sides are
  // contiguous along it (the usual case: a slice of rows or columns), and
  // the whole array at once when both are dense and row-major.
  auto denseRowMajor = [&](const int64_t *strides) {
    int64_t expected = 1;
    for (int64_t i = rank - 1; i >= 0; --i) {
      if (sizes[i] != 1 && strides[i] != expected)
        return false;
      expected *= sizes[i];
    }
    return true;
  };
  if (denseRowMajor(sStrides) && denseRowMajor(dStrides)) {
    std::memcpy(dData, sData, total * elemSize);
    return;
  }
  bool innerRuns = sStrides[rank - 1] == 1 && dStrides[rank - 1] == 1;
  int64_t run = innerRuns ? sizes[rank - 1] : 1;
  int64_t outerRank = innerRuns ? rank - 1 : rank;
  std::vector<int64_t> idx(rank, 0);
  while (true) {
    int64_t so = 0, dof = 0;
    for (int64_t i = 0; i < outerRank; ++i) {
      so += idx[i] * sStrides[i];
      dof += idx[i] * dStrides[i];
    }
    std::memcpy(dData + dof * elemSize, sData + so * elemSize, run * elemSize);
    int64_t i = outerRank - 1;
    for (; i >= 0; --i) {
      if (++idx[i] < sizes[i])
        break;
      idx[i] = 0;
    }
    if (i < 0)
      break;
  }
}

} // extern "C"
