//===- RunOnMesh.h - Run a test body on every device of a mesh --*- C++ -*-===//
//
// Shared by the runtime tests: a Session calls one entry point per device;
// these helpers make that entry point a C++ lambda taking the position.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_UNITTESTS_RUNTIME_RUNONMESH_H
#define TRELLIS_UNITTESTS_RUNTIME_RUNONMESH_H

#include "trellis/Runtime/Runtime.h"

#include <functional>
#include <string>
#include <vector>

namespace trellis_test {

/// A mesh whose axes are named "a", "b", ... with the given sizes.
inline mlir::trellis::rt::MeshShape makeMesh(std::vector<int64_t> sizes) {
  mlir::trellis::rt::MeshShape mesh;
  mesh.axisSizes = sizes;
  for (size_t i = 0; i < sizes.size(); ++i)
    mesh.axisNames.push_back(std::string(1, static_cast<char>('a' + i)));
  return mesh;
}

struct DeviceCall {
  std::function<void()> body;
};

inline void callEntry(void **args) {
  reinterpret_cast<DeviceCall *>(args)->body();
}

/// Runs `body(position)` on every device of `session`'s mesh, once.
inline bool
runOnSession(mlir::trellis::rt::Session &session,
             const std::function<void(int64_t)> &body, std::string &error,
             const mlir::trellis::rt::Session::DeviceHooks &hooks = {}) {
  int64_t n = session.mesh().numDevices();
  std::vector<DeviceCall> calls(n);
  std::vector<void **> args(n);
  for (int64_t p = 0; p < n; ++p) {
    calls[p].body = [&body, p] { body(p); };
    args[p] = reinterpret_cast<void **>(&calls[p]);
  }
  return session.run(callEntry, args, error, hooks);
}

/// Runs `body(position)` on every device of `mesh` in a fresh session.
inline bool runOnMesh(const mlir::trellis::rt::MeshShape &mesh,
                      const std::function<void(int64_t)> &body,
                      std::string &error,
                      std::vector<mlir::trellis::rt::SiteInfo> sites = {},
                      mlir::trellis::rt::SessionOptions options = {}) {
  mlir::trellis::rt::Session session(mesh, std::move(sites), options);
  return runOnSession(session, body, error);
}

} // namespace trellis_test

#endif // TRELLIS_UNITTESTS_RUNTIME_RUNONMESH_H
