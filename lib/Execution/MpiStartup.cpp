//===- MpiStartup.cpp - Ranks agree on what they run ----------------------===//
//
// Point to point on MPI_COMM_WORLD, polled against a deadline: each rank
// sends rank 0 a fixed-size record, rank 0 waits for all of them (naming
// the ranks still missing when the time runs out), decides and sends each
// rank its verdict. Blocking collectives would wait forever for a rank that
// never arrives, which is the failure this exists to report.
//
//===----------------------------------------------------------------------===//

#include "lib/Execution/MpiStartup.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <thread>
#include <vector>

using namespace mlir::trellis::exec;

namespace {

constexpr int kTagRecord = 7001;
constexpr int kTagVerdict = 7002;

/// A record as it travels.
struct Wire {
  int32_t ok;
  uint64_t program;
  uint64_t errors;
  char summary[240];
};

enum Verdict : int32_t { kRun = 0, kFailed = 1, kDiffer = 2 };
enum PrintMode : int32_t { kQuiet = 0, kPlain = 1, kPrefixed = 2 };

struct Answer {
  int32_t verdict;
  int32_t print;
};

using Clock = std::chrono::steady_clock;

/// Polls `requests` until all complete; false if `deadline` passes first
/// (`done` then says which did).
bool waitAll(std::vector<MPI_Request> &requests, std::vector<bool> &done,
             std::optional<Clock::time_point> deadline) {
  done.assign(requests.size(), false);
  size_t left = requests.size();
  while (left) {
    for (size_t i = 0; i < requests.size(); ++i) {
      if (done[i])
        continue;
      int flag = 0;
      MPI_Test(&requests[i], &flag, MPI_STATUS_IGNORE);
      if (flag) {
        done[i] = true;
        --left;
      }
    }
    if (!left)
      break;
    if (deadline && Clock::now() > *deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

std::optional<Clock::time_point> deadlineAfter(double seconds) {
  if (!(seconds > 0 && seconds < 1e9))
    return std::nullopt;
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(seconds));
}

/// "0-1, 3" for ranks {0, 1, 3}.
std::string rankList(const std::vector<int> &ranks) {
  std::string text;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
      ++j;
    if (!text.empty())
      text += ", ";
    text += std::to_string(ranks[i]);
    if (j > i)
      text += "-" + std::to_string(ranks[j]);
    i = j + 1;
  }
  return text;
}

std::string plural(const std::vector<int> &ranks) {
  return (ranks.size() == 1 ? "rank " : "ranks ") + rankList(ranks);
}

[[noreturn]] void abortJob(const std::string &message) {
  std::fprintf(stderr, "trellis-run: error: %s\n", message.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

/// Rank 0's decision from every rank's record; fills each rank's answer
/// and returns the message rank 0 prints (empty: none).
std::string decide(const char *stage, const std::vector<Wire> &all,
                   std::vector<Answer> &answers) {
  int size = static_cast<int>(all.size());
  answers.assign(size, {kRun, kQuiet});
  std::vector<int> failed;
  for (int r = 0; r < size; ++r)
    if (!all[r].ok)
      failed.push_back(r);

  if (!failed.empty()) {
    // Each distinct error text once, by the lowest rank that has it.
    std::map<uint64_t, std::vector<int>> byError;
    for (int r : failed)
      byError[all[r].errors].push_back(r);
    bool alike = byError.size() == 1 && static_cast<int>(failed.size()) == size;
    for (auto &[hash, ranks] : byError)
      answers[ranks.front()].print = alike ? kPlain : kPrefixed;
    for (Answer &answer : answers)
      answer.verdict = kFailed;
    if (alike)
      return "";
    std::string message = plural(failed) + " of " + std::to_string(size) +
                          " failed before the " + stage +
                          " agreement (errors above, prefixed with their "
                          "rank); every rank stops";
    return message;
  }

  std::map<uint64_t, std::vector<int>> byProgram;
  for (int r = 0; r < size; ++r)
    byProgram[all[r].program].push_back(r);
  if (byProgram.size() == 1)
    return "";
  for (Answer &answer : answers)
    answer.verdict = kDiffer;
  std::string message = "MPI ranks run different programs (every rank must "
                        "run the same program, entry, mesh and options):";
  std::vector<std::vector<int>> groups;
  for (auto &[hash, ranks] : byProgram)
    groups.push_back(ranks);
  llvm::sort(groups, [](const std::vector<int> &a, const std::vector<int> &b) {
    return a.front() < b.front();
  });
  for (const std::vector<int> &ranks : groups)
    message +=
        "\n  " + plural(ranks) + ": " + std::string(all[ranks.front()].summary);
  return message;
}

/// Prints a failed rank's errors, each line prefixed with its rank when
/// asked to.
void printErrors(const std::string &errors, int rank, int32_t mode) {
  std::string text =
      errors.empty() ? "trellis-run: error: failed (no message)\n" : errors;
  if (mode == kPrefixed) {
    std::string prefixed;
    for (llvm::StringRef line : llvm::split(llvm::StringRef(text), '\n'))
      if (!line.empty())
        prefixed += "[rank " + std::to_string(rank) + "] " + line.str() + "\n";
    text = prefixed;
  }
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
}

} // namespace

bool mlir::trellis::exec::mpiAgree(const char *stage,
                                   const MpiStartRecord &mine,
                                   double timeoutSeconds) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  Wire wire{};
  wire.ok = mine.ok ? 1 : 0;
  wire.program = mine.program;
  wire.errors = llvm::xxh3_64bits(mine.errors);
  std::strncpy(wire.summary, mine.summary.c_str(), sizeof(wire.summary) - 1);

  Answer answer{kRun, kQuiet};
  if (rank == 0) {
    std::vector<Wire> all(size);
    all[0] = wire;
    std::vector<MPI_Request> requests(size - 1);
    for (int r = 1; r < size; ++r)
      MPI_Irecv(&all[r], sizeof(Wire), MPI_BYTE, r, kTagRecord, MPI_COMM_WORLD,
                &requests[r - 1]);
    std::vector<bool> done;
    if (!waitAll(requests, done, deadlineAfter(timeoutSeconds))) {
      std::vector<int> missing;
      for (int r = 1; r < size; ++r)
        if (!done[r - 1])
          missing.push_back(r);
      char limit[32];
      std::snprintf(limit, sizeof(limit), "%g", timeoutSeconds);
      abortJob(plural(missing) + " of " + std::to_string(size) +
               " did not reach the " + stage + " agreement within --timeout " +
               limit +
               " s (stuck, crashed, or not running trellis-run with the same "
               "arguments); ending every rank");
    }
    std::vector<Answer> answers;
    std::string message = decide(stage, all, answers);
    std::vector<MPI_Request> sends(size - 1);
    for (int r = 1; r < size; ++r)
      MPI_Isend(&answers[r], sizeof(Answer), MPI_BYTE, r, kTagVerdict,
                MPI_COMM_WORLD, &sends[r - 1]);
    answer = answers[0];
    if (answer.print != kQuiet)
      printErrors(mine.errors, rank, answer.print);
    // The verdicts go out before rank 0 prints its summary, so that the
    // failed ranks' errors come first as far as the streams allow.
    MPI_Waitall(size - 1, sends.data(), MPI_STATUSES_IGNORE);
    if (!message.empty()) {
      std::fprintf(stderr, "trellis-run: error: %s\n", message.c_str());
      std::fflush(stderr);
    }
  } else {
    MPI_Request send, receive;
    MPI_Isend(&wire, sizeof(Wire), MPI_BYTE, 0, kTagRecord, MPI_COMM_WORLD,
              &send);
    MPI_Irecv(&answer, sizeof(Answer), MPI_BYTE, 0, kTagVerdict, MPI_COMM_WORLD,
              &receive);
    std::vector<MPI_Request> requests = {send, receive};
    std::vector<bool> done;
    // Longer than rank 0's own limit, so that rank 0's message, which names
    // the missing ranks, is the one printed.
    double limit = timeoutSeconds > 0 ? 2 * timeoutSeconds + 5 : 0;
    if (!waitAll(requests, done, deadlineAfter(limit)))
      abortJob("rank " + std::to_string(rank) +
               ": rank 0 did not answer at "
               "the " +
               stage + " agreement; ending every rank");
    if (answer.print != kQuiet)
      printErrors(mine.errors, rank, answer.print);
  }
  return answer.verdict == kRun;
}
