//===- Gspmd.cpp - GSPMD sharding strings and the mesh behind them --------===//
//
// A tile assignment is either explicit (`devices=[2,2]0,2,1,3`) or an iota
// (`devices=[2,4]<=[4,2]T(1,0)`: iota(8) reshaped to [4,2], transposed, read
// row-major). JAX makes every one of them from a named mesh, so each is a
// split of the devices' row-major index into mixed-radix digits. The mesh
// found here has one axis per prime factor of the device count; for each
// ordering of those axes it reads, per sharding, the order of the axes off
// the device list (the device of each piece is the stride of the next
// fastest axis) and checks that its consecutive groups are the tensor
// dimensions' pieces.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Gspmd.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::trellis;

namespace {

/// A small recursive-descent reader over the sharding text.
struct Reader {
  StringRef text;

  void skipSpaces() { text = text.ltrim(); }
  bool consume(StringRef token) {
    skipSpaces();
    return text.consume_front(token);
  }
  bool integer(int64_t &value) {
    skipSpaces();
    size_t n = 0;
    while (n < text.size() &&
           (llvm::isDigit(text[n]) || (n == 0 && text[n] == '-')))
      ++n;
    if (n == 0 || text.take_front(n).getAsInteger(10, value))
      return false;
    text = text.drop_front(n);
    return true;
  }
  /// `[a,b,c]` or `(a,b,c)`.
  bool list(char open, char close, SmallVectorImpl<int64_t> &values) {
    if (!consume(StringRef(&open, 1)))
      return false;
    if (consume(StringRef(&close, 1)))
      return true;
    do {
      if (!integer(values.emplace_back()))
        return false;
    } while (consume(","));
    return consume(StringRef(&close, 1));
  }
};

int64_t product(ArrayRef<int64_t> values) {
  return std::accumulate(values.begin(), values.end(), int64_t(1),
                         std::multiplies<int64_t>());
}

/// iota(prod(shape)) reshaped to `shape`, transposed by `perm`, flattened.
SmallVector<int64_t> iotaDevices(ArrayRef<int64_t> shape,
                                 ArrayRef<int64_t> perm) {
  int64_t n = product(shape);
  size_t rank = shape.size();
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t i = static_cast<int64_t>(rank) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  SmallVector<int64_t> out;
  SmallVector<int64_t> index(rank, 0); // over the transposed shape
  for (int64_t f = 0; f < n; ++f) {
    int64_t device = 0;
    for (size_t j = 0; j < rank; ++j)
      device += index[j] * strides[perm[j]];
    out.push_back(device);
    for (int64_t j = static_cast<int64_t>(rank) - 1; j >= 0; --j) {
      if (++index[j] < shape[perm[j]])
        break;
      index[j] = 0;
    }
  }
  return out;
}

SmallVector<int64_t> primeFactors(int64_t n) {
  SmallVector<int64_t> primes;
  for (int64_t p = 2; p * p <= n; ++p)
    while (n % p == 0) {
      primes.push_back(p);
      n /= p;
    }
  if (n > 1)
    primes.push_back(n);
  return primes;
}

/// The axes of each dimension of `sharding` on a mesh of `sizes`, or
/// nothing when no order of the axes produces its devices. `budget` counts
/// down the shardings tried.
std::optional<SmallVector<SmallVector<int64_t>>>
matchSharding(const GspmdSharding &sharding, ArrayRef<int64_t> sizes,
              int64_t &budget) {
  size_t k = sizes.size();
  SmallVector<int64_t> strides(k, 1);
  for (int64_t i = static_cast<int64_t>(k) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * sizes[i + 1];
  SmallVector<int64_t> dims(sharding.tiles);
  dims.push_back(sharding.copies);
  // The pieces are numbered row-major over the axes in one order, so the
  // device of piece m (m the product of the sizes of the fastest axes found
  // so far) is the stride of the next axis: read the order off directly.
  const SmallVector<int64_t> &devices = sharding.devices;
  if (--budget < 0 || devices.empty() || devices[0] != 0)
    return std::nullopt;
  SmallVector<int64_t> order;
  SmallVector<bool> used(k, false);
  for (int64_t m = 1; order.size() < k;) {
    if (m >= static_cast<int64_t>(devices.size()))
      return std::nullopt;
    int64_t axis = -1;
    for (size_t a = 0; a < k && axis < 0; ++a)
      if (!used[a] && strides[a] == devices[m])
        axis = a;
    if (axis < 0)
      return std::nullopt;
    used[axis] = true;
    order.insert(order.begin(), axis);
    m *= sizes[axis];
  }
  {
    // Consecutive groups of `order` whose sizes multiply to each dim.
    SmallVector<SmallVector<int64_t>> groups(dims.size());
    size_t next = 0;
    bool fits = true;
    for (size_t d = 0; d < dims.size() && fits; ++d) {
      int64_t size = 1;
      while (size < dims[d] && next < k)
        size *= sizes[order[next]], groups[d].push_back(order[next++]);
      fits = size == dims[d];
    }
    if (!fits || next != k)
      return std::nullopt;
    // Every piece on the device the axes say.
    bool same = true;
    SmallVector<int64_t> coords(dims.size(), 0);
    for (size_t f = 0; f < sharding.devices.size() && same; ++f) {
      int64_t device = 0;
      for (size_t d = 0; d < dims.size(); ++d) {
        int64_t rest = coords[d];
        for (int64_t j = static_cast<int64_t>(groups[d].size()) - 1; j >= 0;
             --j) {
          int64_t axis = groups[d][j];
          device += (rest % sizes[axis]) * strides[axis];
          rest /= sizes[axis];
        }
      }
      same = device == sharding.devices[f];
      for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
        if (++coords[d] < dims[d])
          break;
        coords[d] = 0;
      }
    }
    if (!same)
      return std::nullopt;
    groups.pop_back(); // the copies
    return groups;
  }
}

} // namespace

FailureOr<GspmdSharding> mlir::trellis::parseGspmdSharding(
    StringRef text, function_ref<InFlightDiagnostic()> emitError) {
  GspmdSharding sharding;
  Reader r{text};
  auto bad = [&]() {
    return emitError() << "cannot read GSPMD sharding \"" << text << "\"";
  };
  if (!r.consume("{"))
    return bad();
  if (r.consume("replicated") || r.consume("maximal")) {
    sharding.replicated = true;
    // `maximal device=N`: the rest is the device.
    size_t close = r.text.find('}');
    if (close == StringRef::npos)
      return bad();
    return sharding;
  }
  if (r.consume("manual"))
    return emitError() << "GSPMD sharding \"" << text
                       << "\" outside a manual region";
  if (r.consume("{"))
    return emitError() << "GSPMD tuple sharding \"" << text
                       << "\" is not supported";
  SmallVector<int64_t> tiles;
  if (!r.consume("devices=") || !r.list('[', ']', tiles) || tiles.empty())
    return bad();
  int64_t n = product(tiles);
  if (r.consume("<=")) {
    SmallVector<int64_t> shape, perm;
    if (!r.list('[', ']', shape) || product(shape) != n)
      return bad();
    if (r.text.ltrim().starts_with("T")) {
      r.consume("T");
      if (!r.list('(', ')', perm))
        return bad();
    } else {
      perm = llvm::to_vector(llvm::seq<int64_t>(0, shape.size()));
    }
    SmallVector<int64_t> sorted(perm);
    llvm::sort(sorted);
    if (perm.size() != shape.size() ||
        !llvm::equal(sorted, llvm::seq<int64_t>(0, shape.size())))
      return bad();
    sharding.devices = iotaDevices(shape, perm);
  } else {
    do {
      if (!r.integer(sharding.devices.emplace_back()))
        return bad();
    } while (r.consume(","));
    if (static_cast<int64_t>(sharding.devices.size()) != n)
      return bad();
  }
  SmallVector<int64_t> sorted(sharding.devices);
  llvm::sort(sorted);
  if (!llvm::equal(sorted, llvm::seq<int64_t>(0, n)))
    return emitError() << "GSPMD sharding \"" << text
                       << "\" does not list each device once";
  if (r.consume("last_tile_dim_replicate") ||
      r.consume("last_tile_dims={replicated}")) {
    sharding.copies = tiles.pop_back_val();
  } else if (r.text.contains("manual")) {
    return emitError() << "GSPMD sharding \"" << text
                       << "\": partially manual shardings (a shard_map with "
                          "auto axes) are not supported yet";
  } else if (r.consume("last_tile_dims")) {
    return emitError() << "GSPMD sharding \"" << text
                       << "\": subgroups other than replicated are not "
                          "supported yet";
  }
  if (!r.consume("}") || !r.text.trim().empty())
    return bad();
  sharding.tiles = tiles;
  return sharding;
}

FailureOr<GspmdMesh>
mlir::trellis::inferGspmdMesh(int64_t devices,
                              ArrayRef<GspmdSharding> shardings,
                              function_ref<InFlightDiagnostic()> emitError) {
  for (const GspmdSharding &sharding : shardings)
    if (!sharding.replicated &&
        static_cast<int64_t>(sharding.devices.size()) != devices)
      return emitError() << "a GSPMD tile assignment covers "
                         << sharding.devices.size() << " devices, not "
                         << devices;
  SmallVector<int64_t> primes = primeFactors(devices);
  llvm::sort(primes);
  // The search tries orders of the mesh's prime axes (few distinct ones:
  // equal primes are interchangeable); bounded all the same.
  int64_t budget = 1000000;
  do {
    GspmdMesh mesh;
    mesh.axisSizes = primes;
    bool all = true;
    for (const GspmdSharding &sharding : shardings) {
      if (sharding.replicated) {
        mesh.dimAxes.emplace_back();
        continue;
      }
      std::optional<SmallVector<SmallVector<int64_t>>> axes =
          matchSharding(sharding, primes, budget);
      if (!axes) {
        all = false;
        break;
      }
      mesh.dimAxes.push_back(std::move(*axes));
    }
    if (all)
      return mesh;
  } while (std::next_permutation(primes.begin(), primes.end()));
  if (budget < 0)
    return emitError() << "gave up inferring a mesh of " << devices
                       << " devices from the module's GSPMD tile assignments";
  return emitError() << "the module's GSPMD tile assignments are not splits "
                        "of one mesh of "
                     << devices << " devices";
}
