//===- NpyIO.cpp - Read and write .npy files ------------------------------===//

#include "lib/Execution/Error.h"
#include "trellis/Execution/HostArray.h"
#include "trellis/Runtime/Runtime.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include "llvm/Support/MathExtras.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace mlir::trellis::exec;

namespace {

/// What a .npy header says.
struct NpyHeader {
  int32_t dtype = 0;
  std::vector<int64_t> shape;
};

} // namespace

/// Reads the magic string, version and header dictionary's text from `in`
/// (positioned at the start of the file).
static llvm::Expected<std::string> readHeaderText(std::ifstream &in,
                                                  const std::string &path) {
  if (!in)
    return makeError("cannot open '" + path + "': " + std::strerror(errno));
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    return makeError("'" + path + "' is not a .npy file (bad magic string)");
  int major = static_cast<unsigned char>(magic[6]);
  uint32_t headerLen = 0;
  if (major == 1) {
    unsigned char len[2];
    if (!in.read(reinterpret_cast<char *>(len), 2))
      return makeError("'" + path + "': truncated header");
    headerLen = len[0] | (len[1] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char len[4];
    if (!in.read(reinterpret_cast<char *>(len), 4))
      return makeError("'" + path + "': truncated header");
    headerLen =
        len[0] | (len[1] << 8) | (len[2] << 16) | (uint32_t(len[3]) << 24);
  } else {
    return makeError("'" + path + "': unsupported .npy version " +
                     std::to_string(major));
  }
  if (headerLen > (1u << 20))
    return makeError("'" + path + "': header too large");
  std::string header(headerLen, '\0');
  if (!in.read(header.data(), headerLen))
    return makeError("'" + path + "': truncated header");
  return header;
}

/// The value of `key` in the header dictionary: a quoted string without its
/// quotes, a tuple with its parentheses, or a bare word; "" if absent.
static std::string headerField(const std::string &header,
                               const std::string &key) {
  size_t pos = header.find("'" + key + "'");
  if (pos == std::string::npos)
    return "";
  pos = header.find(':', pos);
  if (pos == std::string::npos)
    return "";
  ++pos;
  while (pos < header.size() && header[pos] == ' ')
    ++pos;
  if (pos >= header.size())
    return "";
  if (header[pos] == '\'') {
    size_t end = header.find('\'', pos + 1);
    return end == std::string::npos ? ""
                                    : header.substr(pos + 1, end - pos - 1);
  }
  if (header[pos] == '(') {
    size_t end = header.find(')', pos);
    return end == std::string::npos ? "" : header.substr(pos, end - pos + 1);
  }
  size_t end = header.find_first_of(",}", pos);
  return header.substr(pos, end - pos);
}

/// The dtype a header's `descr` names.
static llvm::Expected<int32_t> parseDescr(const std::string &descr,
                                          const std::string &path) {
  // Each dtype's descr; little-endian ones also as native ('='), one-byte
  // ones also without '|'. bfloat16: numpy has no such type, and np.save of
  // an ml_dtypes.bfloat16 array writes raw 2-byte values ('<V2'; '|V2' from
  // a plain numpy void view): all spellings of V2 are read as bf16.
  int32_t dtype = -1;
  for (int32_t t : {
#define TRELLIS_RT_DTYPE(NAME, VALUE, MLIR, BYTES, IS_FLOAT, NUMPY, NPY_DESCR) \
  TRELLIS_RT_##NAME,
#include "trellis/Runtime/TrellisDtypes.def"
       }) {
    std::string d = npyDescr(t);
    std::string bare = d.substr(1);
    if (descr == d || (d[0] == '<' && descr == "=" + bare) ||
        ((d[0] == '|' || t == TRELLIS_RT_BF16) &&
         (descr == bare || descr == "|" + bare)))
      dtype = t;
  }
  // Unsigned integers are read as the signless integers of their width,
  // bit for bit: an imported program takes a uint8 image as an i8 argument
  // that its ops read as unsigned (docs/ImportingJAX.md).
  if (dtype < 0) {
    for (auto [unsignedDescr, t] : {std::make_pair("|u1", TRELLIS_RT_I8),
                                    std::make_pair("<u2", TRELLIS_RT_I16),
                                    std::make_pair("<u4", TRELLIS_RT_I32),
                                    std::make_pair("<u8", TRELLIS_RT_I64)}) {
      std::string d = unsignedDescr, bare = d.substr(1);
      if (descr == d || descr == "=" + bare || (d[0] == '|' && descr == bare))
        dtype = t;
    }
  }
  if (dtype < 0)
    return makeError(
        "'" + path + "': unsupported dtype '" + descr +
        "' (supported: float32/64/16, bfloat16 as '<V2', int8/16/32/64, "
        "uint8/16/32/64 as the int of their width, bool, little endian)");
  return dtype;
}

/// The dimensions of a header's `shape` tuple; `bytes` (the element size on
/// entry) becomes the size of the data.
static llvm::Expected<std::vector<int64_t>>
parseShape(const std::string &shapeText, const std::string &path,
           int64_t &bytes) {
  std::vector<int64_t> shape;
  std::string dims = shapeText.substr(1, shapeText.size() - 2);
  std::stringstream ss(dims);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t b = item.find_first_not_of(' ');
    if (b == std::string::npos)
      continue;
    size_t e = item.find_last_not_of(' ');
    std::string digits = item.substr(b, e - b + 1);
    int64_t v = 0;
    bool ok = !digits.empty() && digits.size() <= 18 &&
              digits.find_first_not_of("0123456789") == std::string::npos;
    if (ok)
      v = std::stoll(digits);
    if (!ok)
      return makeError("'" + path + "': malformed dimension '" + digits +
                       "' in shape " + shapeText);
    if (llvm::MulOverflow(bytes, v, bytes))
      return makeError("'" + path + "': shape " + shapeText + " is too large");
    shape.push_back(v);
  }
  return shape;
}

/// Checks that exactly `bytes` of data follow the header (before anything
/// is allocated, so a header claiming terabytes fails cleanly), leaving `in`
/// at the first data byte.
static llvm::Error checkDataSize(std::ifstream &in, const std::string &path,
                                 int64_t bytes,
                                 const std::vector<int64_t> &shape) {
  const std::streamoff dataStart = in.tellg();
  in.seekg(0, std::ios::end);
  const std::streamoff fileEnd = in.tellg();
  in.seekg(dataStart);
  if (!in || dataStart < 0 || fileEnd < dataStart)
    return makeError("'" + path + "': cannot determine the file's size");
  const int64_t have = static_cast<int64_t>(fileEnd - dataStart);
  if (have < bytes)
    return makeError("'" + path + "': expected " + std::to_string(bytes) +
                     " bytes of data for shape " + npyShapeText(shape) +
                     ", the file is shorter");
  if (have > bytes)
    return makeError("'" + path + "': " + std::to_string(have - bytes) +
                     " bytes follow the " + std::to_string(bytes) +
                     " bytes of data for shape " + npyShapeText(shape));
  return llvm::Error::success();
}

/// Reads a .npy header from `in` (positioned at the start of the file),
/// leaving `in` at the first data byte.
static llvm::Expected<NpyHeader> readNpyHeader(std::ifstream &in,
                                               const std::string &path) {
  llvm::Expected<std::string> header = readHeaderText(in, path);
  if (!header)
    return header.takeError();
  std::string descr = headerField(*header, "descr"),
              order = headerField(*header, "fortran_order"),
              shapeText = headerField(*header, "shape");
  if (descr.empty() || shapeText.empty())
    return makeError("'" + path + "': malformed header: " + *header);
  if (order == "True")
    return makeError("'" + path +
                     "': Fortran-order arrays are not supported (save "
                     "with np.ascontiguousarray)");
  if (order != "False")
    return makeError("'" + path +
                     "': malformed header: 'fortran_order' must be True "
                     "or False, got '" +
                     order + "'");
  NpyHeader result;
  llvm::Expected<int32_t> dtype = parseDescr(descr, path);
  if (!dtype)
    return dtype.takeError();
  result.dtype = *dtype;
  int64_t bytes = mlir::trellis::rt::dtypeSize(result.dtype);
  llvm::Expected<std::vector<int64_t>> shape =
      parseShape(shapeText, path, bytes);
  if (!shape)
    return shape.takeError();
  result.shape = std::move(*shape);
  if (llvm::Error error = checkDataSize(in, path, bytes, result.shape))
    return std::move(error);
  return result;
}

llvm::Expected<HostArray>
mlir::trellis::exec::readNpy(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  llvm::Expected<NpyHeader> header = readNpyHeader(in, path);
  if (!header)
    return header.takeError();
  HostArray array;
  array.allocate(header->dtype, header->shape);
  if (!in.read(array.data.data(), array.data.size()) ||
      in.gcount() != static_cast<std::streamsize>(array.data.size()))
    return makeError("'" + path + "': expected " +
                     std::to_string(array.data.size()) +
                     " bytes of data for shape " + npyShapeText(header->shape) +
                     ", the file is shorter");
  return array;
}

llvm::Expected<HostArray>
mlir::trellis::exec::readNpyBlock(const std::string &path,
                                  const NpyBlock &want) {
  std::ifstream in(path, std::ios::binary);
  llvm::Expected<NpyHeader> header = readNpyHeader(in, path);
  if (!header)
    return header.takeError();
  const int32_t dtype = header->dtype;
  const std::vector<int64_t> &shape = header->shape;
  if (dtype != want.dtype || shape != want.globalShape)
    return makeError("'" + path + "' holds " + numpyName(dtype) +
                     npyShapeText(shape) + " but " + want.what + " is " +
                     numpyName(want.dtype) + npyShapeText(want.globalShape));
  const std::streamoff dataStart = in.tellg();
  HostArray block;
  block.allocate(dtype, want.blockShape);
  // readNpyHeader checked that the data is exactly as long as the shape.
  const int64_t elem = block.elementBytes();
  // Read one contiguous run per index of the block's leading dimensions.
  const size_t rank = shape.size();
  if (rank == 0) {
    in.seekg(dataStart);
    if (!in.read(block.data.data(), elem))
      return makeError("'" + path + "': read failed");
    return block;
  }
  const int64_t run = want.blockShape[rank - 1] * elem;
  std::vector<int64_t> index(rank, 0);
  int64_t runs = 1;
  for (size_t d = 0; d + 1 < rank; ++d)
    runs *= want.blockShape[d];
  for (int64_t r = 0; r < runs; ++r) {
    int64_t flat = 0;
    for (size_t d = 0; d < rank; ++d)
      flat = flat * shape[d] + want.offset[d] + index[d];
    in.seekg(dataStart + flat * elem);
    if (!in.read(block.data.data() + r * run, run))
      return makeError("'" + path + "': read failed");
    for (size_t d = rank - 1; d-- > 0;) {
      if (++index[d] < want.blockShape[d])
        break;
      index[d] = 0;
    }
  }
  return block;
}

llvm::Error mlir::trellis::exec::writeNpy(const std::string &path,
                                          const HostArray &array) {
  std::string header =
      "{'descr': '" + npyDescr(array.dtype) +
      "', 'fortran_order': False, 'shape': " + npyShapeText(array.shape) +
      ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out)
    return makeError("cannot write '" + path + "': " + std::strerror(errno));
  out.write("\x93NUMPY\x01\x00", 8);
  char len[2] = {static_cast<char>(header.size() & 0xff),
                 static_cast<char>((header.size() >> 8) & 0xff)};
  out.write(len, 2);
  out.write(header.data(), header.size());
  out.write(array.data.data(), array.data.size());
  if (!out)
    return makeError("cannot write '" + path + "'");
  return llvm::Error::success();
}
