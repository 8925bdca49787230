//===- Runtime.h - Host side of the Trellis runtime -------------*- C++ -*-===//
//
// The C++ API the executor uses to run a JIT-compiled device function on
// every device of a mesh: sessions, device contexts, the Communicator
// interface that collectives go through, and traces. JIT'd code talks to the
// runtime only through the C ABI in TrellisRuntime.h.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_RUNTIME_RUNTIME_H
#define TRELLIS_RUNTIME_RUNTIME_H

#include "trellis/Runtime/MeshMath.h"

#include <atomic>
#include <condition_variable>
#include <csetjmp>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace mlir::trellis::rt {

/// Size in bytes and name of a TRELLIS_RT_* element type (0 if unknown).
int64_t dtypeSize(int32_t dtype);
const char *dtypeName(int32_t dtype);

enum class CollectiveKind {
  AllReduce,
  AllGather,
  ReduceScatter,
  AllToAll,
  Ppermute
};
const char *kindName(CollectiveKind kind);

/// One collective call as a device makes it.
struct CollectiveDesc {
  int64_t site = -1;
  CollectiveKind kind = CollectiveKind::AllReduce;
  int64_t axes = 0; ///< packed axis list
  int32_t dtype = 0;
  int32_t reduction = 0;
  /// AllReduce/Ppermute: {count}; AllGather/ReduceScatter: {outer, inner};
  /// AllToAll: {splitOuter, splitInner, concatOuter, concatInner}.
  int64_t geometry[4] = {0, 0, 0, 0};
  /// Bytes this device sends or receives, for traces and reports.
  int64_t bytes = 0;
};

/// What the host knows about a collective op of the program.
struct SiteInfo {
  std::string opName;   ///< e.g. "spmd.psum"
  std::string location; ///< e.g. "prog.mlir:12:5"
  /// ppermute (source, target) pairs, as ranks in the group.
  std::vector<std::pair<int64_t, int64_t>> pairs;
  std::string describe() const { return opName + " at " + location; }
};

/// A span on a device's timeline.
struct TraceEvent {
  std::string name;
  /// "compute", "collective", "wait" (on the device's own track), or
  /// "transfer": a payload in flight from this device (own tracks, since
  /// transfers overlap compute and each other).
  std::string category;
  double startUs = 0;
  double durUs = 0;
  int64_t bytes = 0;
  int64_t peer = -1; ///< transfers: the receiving device
};

/// When an asynchronous transfer was handed over and when it is delivered.
struct TransferTiming {
  double sendUs = 0;
  double arriveUs = 0;
  int64_t targetDevice = -1; ///< -1: this device sends nothing
  int hops = 0;              ///< links crossed (modelled interconnect)
};

/// The trace event of a payload in flight from a device (its transfer
/// tracks), timed from `originUs`.
TraceEvent transferEvent(const TransferTiming &timing, double originUs,
                         int64_t bytes);

/// A communicator's record of a collective it set going at its start
/// (the MPI backend's nonblocking call and its buffers).
struct PendingCollective {
  virtual ~PendingCollective();
};

/// When a member started an asynchronous collective it now waits for
/// (trellis_rt_collective_start): the collective begins once the last
/// member has started, not when the members wait.
struct AsyncStart {
  double clockUs = 0; ///< the member's virtual clock then
  double wallUs = 0;  ///< the wall clock then
  /// What the communicator set going at the start (Communicator::begin),
  /// or null: then the data moves at the wait.
  std::unique_ptr<PendingCollective> pending;
};

/// An asynchronous collective a device started and has not waited for:
/// its description, a copy of its input (the program may overwrite the
/// operand after the start) and when it started.
struct StartedCollective {
  CollectiveDesc desc;
  std::vector<char> input;
  AsyncStart at;
  int64_t order = 0; ///< how many collectives the device started before
  bool live = false;
  /// On virtual clocks, set when the collective was completed ahead of its
  /// wait, into `result` (its wait copies it out): a device completes its
  /// collectives in the order it started them.
  bool completed = false;
  std::vector<char> result;
  /// Bumped each time the slot is reused; part of the handle, so that a
  /// handle waited for twice does not name a later start in its slot.
  int64_t generation = 0;
};

class Communicator;

/// Where a device's virtual time went (trellis-run --clock=virtual,
/// docs/Interconnect.md). compute + communication + idle is the device's
/// final clock.
struct DeviceTimes {
  double computeUs = 0; ///< the thread's CPU time in compiled code
  /// Blocked in a collective or wait while data was on the wire.
  double commUs = 0;
  /// Blocked until a peer reached the collective or sent its data.
  double idleUs = 0;
  /// Modelled time of everything this device took part in: blocking
  /// collectives, and the transfers it received; transferUs - commUs is
  /// the part hidden behind compute.
  double transferUs = 0;
  double endUs = 0; ///< the clock when the device's function returned
  /// Asynchronous collectives virtual time completed ahead of their wait:
  /// the device ran a later-started collective (a synchronous one, or the
  /// wait of an asynchronous one) while they were outstanding, and links
  /// take the earlier start first (docs/Overlap.md).
  int64_t reorderedWaits = 0;
};

/// What a simulated device computes like (trellis-run --device, with
/// virtual clocks): matmul kernels take their roofline time, and other
/// compute the host's CPU time scaled by `hostScale`.
struct DeviceProfile {
  std::string name;
  /// Peak dense matmul throughput, TFLOP/s, by operand type.
  double f64Tflops = 0, f32Tflops = 0, bf16Tflops = 0;
  double memoryGBps = 0; ///< device memory bandwidth
  /// Device time per second of host CPU time for compute other than
  /// matmul kernels (the host's memory bandwidth per core over the
  /// device's).
  double hostScale = 1;
  /// The roofline time of a matmul of `flops` over `bytes` of operands
  /// (microseconds): max(flops / peak, bytes / memory bandwidth).
  double matmulUs(int32_t dtype, double flops, double bytes) const;
};

/// At most N devices compute at once: a device holds a slot while it runs
/// compiled code and gives it up while it blocks in a collective. A freed
/// slot goes to the waiting device that has made the least progress
/// (completed the fewest collectives; the earliest to ask among equals),
/// which keeps the devices in step as devices with their own compute would
/// be. With N = the host's cores, each running device has a core to itself
/// instead of all of them time-slicing every core (which thrashes caches
/// and slows every kernel alike).
class ComputeSlots {
public:
  explicit ComputeSlots(int slots) : free_(slots) {}
  void acquire(int64_t progress);
  void release();

private:
  struct Waiter {
    std::condition_variable cv;
    int64_t progress = 0;
    uint64_t ticket = 0;
    bool granted = false;
  };
  std::mutex mu_;
  int free_;
  uint64_t nextTicket_ = 0;
  /// Devices waiting for a slot; a released slot goes straight to one of
  /// them (no thundering herd).
  std::vector<Waiter *> waiting_;
};

/// Per-device state, reachable from runtime calls through a thread-local.
struct DeviceContext {
  int64_t position = 0; ///< row-major mesh position
  int64_t deviceId = 0;
  Communicator *comm = nullptr;
  const MeshShape *mesh = nullptr;
  const std::vector<SiteInfo> *sites = nullptr;
  std::jmp_buf abortJump;
  bool tracing = false;
  double originUs = 0;   ///< session start, for trace timestamps
  double lastMarkUs = 0; ///< end of the last runtime call (compute spans)
  /// Virtual time (--clock=virtual): the device's own clock, which its
  /// thread's CPU time advances while it computes and the communicator
  /// advances while it communicates; every timestamp above is then in
  /// virtual microseconds from the start of the run.
  bool virtualClock = false;
  double clockUs = 0; ///< the virtual time at the last runtime call
  /// Virtual time: when the device's last collective ended. A device runs
  /// one collective at a time (they share its links): the next begins no
  /// earlier, even when it was started asynchronously before.
  double collectivesFreeUs = 0;
  /// Asynchronous collectives started so far (StartedCollective::order).
  int64_t collectivesStarted = 0;
  double cpuMarkUs = 0; ///< the thread's CPU time at that call's end
  /// Of the runtime call under way: how long the device waited for a
  /// peer, ahead of its communication (traced as a wait).
  double callIdleUs = 0;
  DeviceTimes times;
  /// Virtual clock: the CPU time of each compute segment (between two
  /// runtime calls) of this run, in order ...
  std::vector<double> segments;
  /// ... and, when replaying, the durations to advance the clock by
  /// instead (Session::replayComputeSegments).
  const std::vector<double> *replay = nullptr;
  /// Virtual clock: the device computes like this (null: like the host) ...
  const DeviceProfile *profile = nullptr;
  /// ... and, in a dry run, its matmul kernels only advance the clock.
  bool dryRun = false;
  /// Matmul kernels run as the oracle's plain loops (referenceKernels).
  bool referenceKernels = false;
  std::vector<TraceEvent> events;
  std::atomic<int64_t> collectives{0}; ///< collectives completed
  ComputeSlots *slots = nullptr;       ///< null: no limit
  bool holdsSlot = false;
  /// Per ppermute handle: the (in, out) buffers of a direct start, checked
  /// at its wait; (0, 0) for staged or completed ones.
  std::vector<std::pair<int64_t, int64_t>> directPermutes;
  /// Asynchronous collectives by handle (tagged, trellis_rt_collective_start)
  /// and the slots free for reuse.
  std::vector<StartedCollective> startedCollectives;
  std::vector<int64_t> freeStartedSlots;
  /// Heap buffers the device code allocated and has not freed yet: a run
  /// that stops on an error unwinds past their deallocations, so the
  /// session frees them (releaseBuffers).
  std::unordered_set<void *> buffers;
  /// Whether the device's entry returned (false: it stopped on an error).
  bool returned = false;
};

/// Frees the buffers `device`'s code left allocated when its run stopped
/// on an error (`free`); otherwise forgets them (after a run that returned
/// they belong to whoever the code handed them to).
void releaseBuffers(DeviceContext &device, bool free);

/// Gives up the device's compute slot while it blocks (no-op without
/// slots); resume() takes one again, recording the queueing time.
void suspendCompute(DeviceContext &device);
void resumeCompute(DeviceContext &device);

/// Closes the calling device's compute span that ends now (when tracing)
/// and returns the current time: on its virtual clock, which this advances
/// by the CPU time of the compute, with --clock=virtual.
double markComputeEnd(DeviceContext &device);

/// The device's time now: the wall clock, or its virtual clock plus the CPU
/// time its thread has spent since its last runtime call.
double deviceNowUs(const DeviceContext &device);

/// Ends a runtime call on the virtual clock: the runtime's own work in it
/// (copies, reductions) is not compute; the clock stands where the
/// communicator put it.
void endRuntimeCall(DeviceContext &device);

/// CPU time of the calling thread, in microseconds.
double threadCpuUs();

/// Virtual clock: the device leaves a blocking collective that the latest
/// member of its group reached at `lastArrivalUs` and that takes `costUs`
/// on the links; it waited for that member, then communicated.
void leaveCollective(DeviceContext &device, double lastArrivalUs,
                     double costUs);

/// Virtual clock: when the device arrives at a collective it runs now
/// (started earlier when `started` is given), for the group's latest
/// arrival: its start, but no earlier than the end of its previous
/// collective (a device runs one at a time).
double collectiveArrivalUs(const DeviceContext &device,
                           const AsyncStart *started);

/// Virtual clock: the device ends a collective whose latest member arrived
/// at `lastArrivalUs` and that takes `costUs`: a blocking one as
/// leaveCollective, a started one as a transfer waited for.
void finishCollective(DeviceContext &device, double lastArrivalUs,
                      double costUs, const AsyncStart *started);

/// Virtual clock: the device's wait for a payload sent at `sentAtUs` that
/// arrives at `arrivedAtUs`, and for its own payload to leave its buffer
/// at `sendDoneUs`; until the sender sent it waited for a peer, then for
/// the wire.
void waitForTransfer(DeviceContext &device, double sentAtUs, double arrivedAtUs,
                     double sendDoneUs);

/// Virtual clock with a device profile: a kernel of `us` on the device.
/// Closes the compute before it (markComputeEnd first) and advances the
/// clock by `us` as compute.
void advanceByKernel(DeviceContext &device, const char *name, double us);

/// The device the calling thread runs, or null outside a device.
DeviceContext *currentDevice();
void setCurrentDevice(DeviceContext *device);

/// Microseconds on a monotonic clock.
double nowUs();

/// Ends the calling device's run after an error has been recorded: unwinds
/// to the session (no C++ objects may be live between the runtime entry and
/// this call).
[[noreturn]] void abortDevice();

/// Moves the data of collectives between devices.
class Communicator {
public:
  virtual ~Communicator();
  /// Runs one collective for `device`. Returns false when the run must stop
  /// (mismatch, deadlock, another device failed); the error is recorded.
  /// `started` is given when the device started the collective earlier
  /// and waits for it now: the collective begins when the last member
  /// started it (on the virtual clock, and in wall time with a link model)
  /// and the device's wait only covers what is left of it.
  virtual bool execute(DeviceContext &device, const CollectiveDesc &desc,
                       const void *in, void *out,
                       const AsyncStart *started = nullptr) = 0;
  /// At an asynchronous collective's start: may set it going on `in` (the
  /// start's copy of the operand, alive until the wait) and record that in
  /// `pending`, which execute() then completes through `started->pending`.
  /// By default nothing happens before the wait. Returns false when the
  /// run must stop.
  virtual bool begin(DeviceContext &device, const CollectiveDesc &desc,
                     const void *in,
                     std::unique_ptr<PendingCollective> &pending) {
    return true;
  }
  /// Starts an asynchronous ppermute; returns a handle, or -1 on failure.
  /// Staged (`out` null): the payload is copied before this returns and
  /// waitPermute delivers it into its `out`. Direct (`out` given): nothing
  /// is copied here; the caller keeps `in` alive and unchanged, and leaves
  /// `out` alone, until its waitPermute returns (which then also waits
  /// until this device's payload has been taken). `timing`, if given,
  /// receives when the transfer leaves and arrives.
  virtual int64_t startPermute(DeviceContext &device,
                               const CollectiveDesc &desc, const void *in,
                               void *out, TransferTiming *timing = nullptr) = 0;
  /// Completes a ppermute; `out` is null for a direct one.
  virtual bool waitPermute(DeviceContext &device, int64_t handle,
                           void *out) = 0;
  /// Whether waitPermute(handle) would return without blocking.
  virtual bool permuteReady(DeviceContext &device, int64_t handle) = 0;
  /// The device's function returned.
  virtual void deviceFinished(DeviceContext &device) = 0;
  /// Records an error and stops every device at its next runtime call.
  virtual void fail(const std::string &message) = 0;
  /// Whether the run has failed, and why (the first error recorded).
  virtual bool hasFailed(std::string *message) = 0;
};

/// How the in-process interconnect is modelled; all zero means plain
/// shared-memory copies. A simulation (docs/Interconnect.md): every mesh
/// axis is a ring with one link per direction between neighbours; an
/// asynchronous transfer occupies each link of its route for
/// bytes / bandwidth and arrives `latencyUs` per hop later, delivered by a
/// transfer engine thread (the sending and receiving devices keep
/// computing); a blocking collective takes the time of a ring algorithm
/// over its group once every member has arrived.
struct LinkModel {
  double latencyUs = 0;     ///< per hop
  double bandwidthGBps = 0; ///< per link, each direction; 0 = unlimited
  bool enabled() const { return latencyUs > 0 || bandwidthGBps > 0; }
};

struct SessionOptions {
  /// A run that takes longer is stopped and reported (0: no limit).
  double timeoutSeconds = 300;
  bool trace = false;
  /// Print a progress line to stderr on runs longer than a second.
  bool progress = false;
  /// Report a device that crashes (SIGSEGV, SIGFPE, SIGBUS, SIGILL) by
  /// name and end the process with status 1, instead of dying silently.
  bool catchSignals = false;
  LinkModel link;
  /// Time devices by virtual clocks (DeviceContext::clockUs): compute by
  /// each thread's CPU time, communication by the link model.
  bool virtualClock = false;
  /// With virtualClock: what the devices compute like (empty name: the
  /// host), and whether matmul kernels skip their arithmetic.
  DeviceProfile profile;
  bool dryRun = false;
  /// At most this many devices compute at once (0: no limit); see
  /// ComputeSlots.
  int computeSlots = 0;
  /// Multi-process runs: this process runs only the device at this mesh
  /// position (-1: every device, one thread each) ...
  int64_t onlyPosition = -1;
  /// ... through this communicator (null: a fresh in-process one per run,
  /// or a reference one with `referenceCollectives`).
  Communicator *communicator = nullptr;
  /// Run collectives through createReferenceCommunicator: blocking, plain
  /// loops, the oracle of trellis-run --reference.
  bool referenceCollectives = false;
  /// Run matmul kernels as plain loops that share no code with Eigen or
  /// oneDNN (the oracle of trellis-run --reference): far faster than the
  /// scalar loops of the loop lowering, still independent of the kernels
  /// the checked run uses.
  bool referenceKernels = false;
};

/// Runs a device entry point on one thread per device of a mesh, collectives
/// meeting in shared memory.
class Session {
public:
  using Entry = void (*)(void **);

  Session(MeshShape mesh, std::vector<SiteInfo> sites, SessionOptions options);
  ~Session();

  /// Per-device work around the entry point, run on the device's own
  /// thread (so that the devices do it in parallel): `before(p)` ahead of
  /// the entry (placing its inputs, say), `after(p)` once its entry has
  /// returned without failing (copying its outputs out). Either may be
  /// empty. Neither is traced or counted as device compute.
  struct DeviceHooks {
    std::function<void(int64_t)> before;
    std::function<void(int64_t)> after;
  };

  /// Calls `entry(args[p])` on the device at each mesh position p. Returns
  /// false with `error` set if any device failed, the devices disagreed on a
  /// collective, they deadlocked or the run timed out.
  bool run(Entry entry, const std::vector<void **> &args, std::string &error,
           const DeviceHooks &hooks = {});

  const MeshShape &mesh() const { return mesh_; }
  const std::vector<SiteInfo> &sites() const { return sites_; }
  /// Multi-process runs: run only the device at `position`, through
  /// `comm` (owned by the caller).
  void runOnly(int64_t position, Communicator *comm) {
    options_.onlyPosition = position;
    options_.communicator = comm;
  }
  /// Per device id, the events of the last run (when tracing).
  std::vector<std::vector<TraceEvent>> traces() const;
  /// Per device id, where its virtual time went in the last run.
  std::vector<DeviceTimes> deviceTimes() const;
  /// Virtual clock: per device id, the CPU time of each compute segment of
  /// the last run.
  std::vector<std::vector<double>> computeSegments() const;
  /// Virtual clock: in the runs from now on, each device's k-th compute
  /// segment advances its clock by `segments[id][k]` rather than by the
  /// CPU time it takes (segments past the end are measured); empty: measure
  /// all. A run whose compute is replayed from robust estimates (each
  /// segment's fastest time over several runs) is free of the noise of
  /// any one run.
  void replayComputeSegments(std::vector<std::vector<double>> segments) {
    replay_ = std::move(segments);
  }
  int64_t collectivesCompleted() const;

private:
  /// The devices of a run that have finished (Session.cpp).
  struct FinishedDevices;

  // The steps of run().
  /// The mesh positions of the devices this process runs.
  std::vector<int64_t> localPositions() const;
  /// Makes a fresh DeviceContext for every mesh position; returns the
  /// start of the run, their trace origin.
  double createDevices(Communicator *comm, ComputeSlots *slots);
  /// Waits until the `numLocal` devices of the run have finished, printing
  /// progress on long runs and enforcing the time limit.
  void awaitDevices(Communicator &comm, FinishedDevices &finished,
                    int64_t numLocal, double originUs) const;

  MeshShape mesh_;
  std::vector<SiteInfo> sites_;
  SessionOptions options_;
  std::vector<std::unique_ptr<DeviceContext>> devices_;
  std::vector<std::vector<double>> replay_;
  /// One thread per mesh position, kept across runs (DeviceThreads.h).
  struct DeviceThreads;
  std::unique_ptr<DeviceThreads> threads_;
};

/// Creates the in-process communicator used by Session.
/// Deliberately simple blocking collectives (ReferenceCommunicator.cpp):
/// each device computes its result from its group's inputs with element
/// loops once all have arrived. Asynchronous ppermutes are refused.
std::unique_ptr<Communicator>
createReferenceCommunicator(const MeshShape &mesh,
                            const std::vector<SiteInfo> &sites);

std::unique_ptr<Communicator>
createInProcessCommunicator(const MeshShape &mesh,
                            const std::vector<SiteInfo> &sites,
                            const LinkModel &link, bool virtualClock = false);

} // namespace mlir::trellis::rt

#endif // TRELLIS_RUNTIME_RUNTIME_H
