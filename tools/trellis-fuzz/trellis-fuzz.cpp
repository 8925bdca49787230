//===- trellis-fuzz.cpp - libFuzzer target for the parser and passes -----===//
//
// Each input is parsed as a module with every Trellis dialect, verified, and
// run through each of Trellis's pass pipelines on its own copy. A bug is:
// a crash, an assertion, a sanitizer report, a hang (libFuzzer's -timeout),
// or a pipeline that reports success on IR that then fails verification
// (this target aborts), or an error a pass reports at no location in the
// input (the user could not tell which line it is about). Located errors
// are fine: rejecting bad input is their job.
//
// Input that holds StableHLO or Shardy ops or attributes (as JAX prints it;
// the StableHLO seeds of a long campaign) is first imported
// (trellis-import-stablehlo), under the same checks, and what it imports to
// goes through the pipelines.
//
// Besides libFuzzer's byte mutations, LLVMFuzzerCustomMutator edits the text
// as MLIR: integers (shapes, axis sizes, dims, pairs) become edge values,
// quoted names (axes) are swapped for others from the input, and tokens
// such as `tiled`, `{}` or `check_vma = false` are dropped or duplicated.
//
// Run: scripts/fuzz.sh (seeds from every .mlir in the repository).
//
//===----------------------------------------------------------------------===//

#include "trellis/Import/Registration.h"
#include "trellis/Pipelines/Pipelines.h"
#include "trellis/Pipelines/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace mlir;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

/// The pipelines every input goes through (each on a fresh copy).
const char *const kPipelines[] = {
    "trellis-inline-calls,trellis-infer-shardings,trellis-propagate,"
    "trellis-partition,canonicalize,cse",
    "spmd-check-variance",
    "spmd-check-variance{insert-pvary=false}",
    "spmd-collective-matmul{force},spmd-async-collectives",
    "spmd-chunk-all-to-all{threshold-bytes=0},"
    "spmd-async-collectives{kinds=all}",
    "spmd-transpose",
    "trellis-inline-calls,trellis-infer-shardings,trellis-propagate,"
    "trellis-partition,canonicalize,cse,"
    "spmd-outline-device-func{erase-host=true},spmd-erase-variance,"
    "spmd-to-runtime",
};

DialectRegistry &registry() {
  static DialectRegistry *r = [] {
    trellis::registerAllPasses();
    auto *reg = new DialectRegistry();
    trellis::registerAllDialects(*reg);
    trellis::registerImportDialects(*reg);
    return reg;
  }();
  return *r;
}

/// True if `loc` points into the input somewhere: a file, line and column,
/// or a name the input gave (`loc("reduce-scatter.1")`, as XLA prints
/// programs), possibly inside a call site or fusion.
bool isLocated(Location loc) {
  bool found = false;
  loc->walk([&](Location inner) {
    if (isa<FileLineColRange, NameLoc>(inner))
      found = true;
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

/// Runs `pipeline` on `module` under the checks above; true on success.
bool runChecked(MLIRContext &context, ModuleOp module, const char *pipeline,
                bool &inPasses) {
  PassManager pm(&context);
  if (failed(parsePassPipeline(pipeline, pm))) {
    llvm::errs() << "trellis-fuzz: cannot parse pipeline " << pipeline << "\n";
    std::abort();
  }
  pm.enableVerifier(false); // checked below, to tell success from failure
  inPasses = true;
  bool ok = succeeded(pm.run(module));
  inPasses = false;
  if (ok && failed(verify(module))) {
    llvm::errs() << "trellis-fuzz: '" << pipeline
                 << "' succeeded on IR that then fails verification\n";
    std::abort();
  }
  return ok;
}

void runOne(const std::string &text) {
  MLIRContext context(registry());
  context.disableMultithreading();
  context.printOpOnDiagnostic(false);
  // Diagnostics are expected (bad input) and dropped, but an error a pass
  // reports must say where.
  bool inPasses = false;
  context.getDiagEngine().registerHandler([&](Diagnostic &diag) {
    if (inPasses && diag.getSeverity() == DiagnosticSeverity::Error &&
        !isLocated(diag.getLocation())) {
      llvm::errs() << "trellis-fuzz: a pass reported an error at no location "
                      "in the input: "
                   << diag << "\n";
      std::abort();
    }
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  if (!module)
    return;
  if (trellis::needsStableHLOImport(*module) &&
      !runChecked(context, *module, "trellis-import-stablehlo", inPasses))
    return;
  for (const char *pipeline : kPipelines) {
    OwningOpRef<ModuleOp> copy(module->clone());
    runChecked(context, *copy, pipeline, inPasses);
  }
}

/// Spans of the input that look like MLIR tokens worth mutating.
struct Token {
  size_t begin, end;
  enum Kind { Integer, Quoted, Word } kind;
};

std::vector<Token> tokenize(const std::string &s) {
  std::vector<Token> tokens;
  for (size_t i = 0; i < s.size();) {
    if (std::isdigit(static_cast<unsigned char>(s[i])) &&
        (i == 0 || !std::isalnum(static_cast<unsigned char>(s[i - 1])))) {
      size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])))
        ++j;
      tokens.push_back({i, j, Token::Integer});
      i = j;
    } else if (s[i] == '"') {
      size_t j = s.find('"', i + 1);
      if (j == std::string::npos)
        break;
      tokens.push_back({i, j + 1, Token::Quoted});
      i = j + 1;
    } else if (std::isalpha(static_cast<unsigned char>(s[i])) || s[i] == '_') {
      size_t j = i;
      while (j < s.size() &&
             (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_'))
        ++j;
      tokens.push_back({i, j, Token::Word});
      i = j;
    } else {
      ++i;
    }
  }
  return tokens;
}

std::string mutateText(const std::string &s, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Token> tokens = tokenize(s);
  if (tokens.empty())
    return s;
  static const char *const kIntegers[] = {
      "0",  "1",  "2",   "3",          "4",          "5",
      "7",  "8",  "16",  "15",         "64",         "1024",
      "-1", "-2", "255", "2147483648", "4294967296", "9223372036854775807"};
  static const char *const kWords[] = {
      "tiled", "check_vma", "false", "true", "manual_axes", "index",
      "f32",   "i32",       "bf16",  "f16",  "i1",          "xf32"};
  const Token &t = tokens[rng() % tokens.size()];
  std::string replacement;
  switch (t.kind) {
  case Token::Integer:
    replacement = kIntegers[rng() % std::size(kIntegers)];
    break;
  case Token::Quoted: {
    // Another quoted string of the input, or a fresh axis name.
    std::vector<const Token *> quoted;
    for (const Token &o : tokens)
      if (o.kind == Token::Quoted)
        quoted.push_back(&o);
    const Token *other = quoted[rng() % quoted.size()];
    replacement = rng() % 4 ? s.substr(other->begin, other->end - other->begin)
                            : std::string("\"z\"");
    break;
  }
  case Token::Word:
    replacement = rng() % 3 ? std::string()
                            : std::string(kWords[rng() % std::size(kWords)]);
    break;
  }
  // Sometimes duplicate the token instead of replacing it.
  if (rng() % 8 == 0)
    replacement = s.substr(t.begin, t.end - t.begin) + " " +
                  s.substr(t.begin, t.end - t.begin);
  return s.substr(0, t.begin) + replacement + s.substr(t.end);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  runOne(std::string(reinterpret_cast<const char *>(data), size));
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  if (seed % 3 == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::string text(reinterpret_cast<const char *>(data), size);
  std::string mutated = mutateText(text, seed);
  if (mutated.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, mutated.data(), mutated.size());
  return mutated.size();
}
