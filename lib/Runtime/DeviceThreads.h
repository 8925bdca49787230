//===- DeviceThreads.h - The threads a session runs devices on --*- C++ -*-===//

#ifndef TRELLIS_LIB_RUNTIME_DEVICETHREADS_H
#define TRELLIS_LIB_RUNTIME_DEVICETHREADS_H

#include "trellis/Runtime/Runtime.h"

#include <algorithm>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace mlir::trellis::rt {

/// The device threads of a session, one per mesh position, created on
/// first use and kept across runs, so a device runs on the same thread (and
/// malloc arena, with its memory already mapped) every time. With fresh
/// threads per run, one device per run computed several times slower than
/// the others (most likely the thread that got a fresh arena, faulting its
/// buffers in) and held back every device that waited for its data.
struct Session::DeviceThreads {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::thread> threads; ///< per position; started on first use
  std::vector<char> busy;           ///< per position: `body` to run
  std::function<void(int64_t)> body;
  bool stop = false;

  explicit DeviceThreads(int64_t n) : threads(n), busy(n, 0) {}
  ~DeviceThreads() {
    {
      std::lock_guard<std::mutex> lock(mu);
      stop = true;
    }
    cv.notify_all();
    for (std::thread &t : threads)
      if (t.joinable())
        t.join();
  }

  /// Runs `run(p)` on the thread of each position in `positions`.
  void start(const std::vector<int64_t> &positions,
             std::function<void(int64_t)> run) {
    std::lock_guard<std::mutex> lock(mu);
    body = std::move(run);
    for (int64_t p : positions) {
      busy[p] = 1;
      if (!threads[p].joinable())
        threads[p] = std::thread([this, p] { loop(p); });
    }
    cv.notify_all();
  }

  /// Blocks until every started body has returned.
  void waitIdle() {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] {
      return std::find(busy.begin(), busy.end(), 1) == busy.end();
    });
  }

private:
  void loop(int64_t p) {
    std::unique_lock<std::mutex> lock(mu);
    while (true) {
      cv.wait(lock, [&] { return stop || busy[p]; });
      if (stop)
        return;
      lock.unlock();
      body(p);
      lock.lock();
      busy[p] = 0;
      cv.notify_all();
    }
  }
};

} // namespace mlir::trellis::rt

#endif // TRELLIS_LIB_RUNTIME_DEVICETHREADS_H
