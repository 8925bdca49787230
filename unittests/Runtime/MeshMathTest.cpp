//===- MeshMathTest.cpp - Coordinates, groups, blocks ---------------------===//

#include "trellis/Runtime/MeshMath.h"

#include <gtest/gtest.h>

using namespace mlir::trellis::rt;

namespace {

MeshShape mesh42() {
  MeshShape mesh;
  mesh.axisNames = {"i", "j"};
  mesh.axisSizes = {4, 2};
  return mesh;
}

TEST(MeshMath, PackedAxesRoundTrip) {
  for (AxisList axes :
       {AxisList{}, AxisList{0}, AxisList{1, 0}, AxisList{2, 0, 1}}) {
    EXPECT_EQ(unpackAxes(packAxes(axes)), axes);
  }
  EXPECT_EQ(packAxes({0}), 1);
  EXPECT_EQ(packAxes({1, 0}), 2 | (1 << 4));
}

TEST(MeshMath, RingRoutes) {
  MeshShape mesh = mesh42();
  // Along i (size 4): the short way; (0,0) -> (3,0) goes backward.
  EXPECT_EQ(ringRoute(mesh, 0, 6, 1), (std::vector<LinkHop>{{0, 0, -1}}));
  EXPECT_EQ(ringRoute(mesh, 0, 2, 1), (std::vector<LinkHop>{{0, 0, 1}}));
  // Half-way around (2 hops on a ring of 4) follows the tie direction.
  EXPECT_EQ(ringRoute(mesh, 0, 4, 1),
            (std::vector<LinkHop>{{0, 0, 1}, {2, 0, 1}}));
  EXPECT_EQ(ringRoute(mesh, 0, 4, -1),
            (std::vector<LinkHop>{{0, 0, -1}, {6, 0, -1}}));
  // Along j (size 2) both neighbours are the same device, over two links.
  EXPECT_EQ(ringRoute(mesh, 0, 1, 1), (std::vector<LinkHop>{{0, 1, 1}}));
  EXPECT_EQ(ringRoute(mesh, 0, 1, -1), (std::vector<LinkHop>{{0, 1, -1}}));
  // Axes in mesh order: (1,0) -> (0,1) is an i hop, then a j hop.
  EXPECT_EQ(ringRoute(mesh, 2, 1, -1),
            (std::vector<LinkHop>{{2, 0, -1}, {0, 1, -1}}));
  EXPECT_TRUE(ringRoute(mesh, 5, 5, 1).empty());
  // Link indices are distinct per (device, axis, direction).
  EXPECT_NE(linkIndex(mesh, {0, 1, 1}), linkIndex(mesh, {0, 1, -1}));
  EXPECT_EQ(linkIndex(mesh, {7, 1, -1}), 8 * 2 * 2 - 1);
}

TEST(MeshMath, CoordinatesAreRowMajor) {
  MeshShape mesh = mesh42();
  EXPECT_EQ(mesh.numDevices(), 8);
  EXPECT_EQ(mesh.coords(5), (std::vector<int64_t>{2, 1}));
  for (int64_t p = 0; p < 8; ++p)
    EXPECT_EQ(mesh.position(mesh.coords(p)), p);
}

TEST(MeshMath, GroupsAlongAxes) {
  MeshShape mesh = mesh42();
  // Along j: pairs of neighbours.
  EXPECT_EQ(mesh.groupMembers(5, {1}), (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(mesh.rankInGroup(5, {1}), 1);
  // Along i: a column.
  EXPECT_EQ(mesh.groupMembers(5, {0}), (std::vector<int64_t>{1, 3, 5, 7}));
  EXPECT_EQ(mesh.rankInGroup(5, {0}), 2);
  // ("i", "j") linearises with i major; ("j", "i") with j major.
  EXPECT_EQ(mesh.rankInGroup(5, {0, 1}), 5);
  EXPECT_EQ(mesh.rankInGroup(5, {1, 0}), 1 * 4 + 2);
  EXPECT_EQ(mesh.groupMembers(0, {1, 0}),
            (std::vector<int64_t>{0, 2, 4, 6, 1, 3, 5, 7}));
  EXPECT_EQ(mesh.groupSize({0, 1}), 8);
  EXPECT_EQ(mesh.groupLeader(7, {0}), 1);
  // No axes: every device alone.
  EXPECT_EQ(mesh.groupMembers(3, {}), (std::vector<int64_t>{3}));
}

TEST(MeshMath, DeviceOrder) {
  MeshShape mesh;
  mesh.axisNames = {"x"};
  mesh.axisSizes = {4};
  mesh.deviceIds = {0, 2, 3, 1};
  EXPECT_EQ(mesh.deviceAt(1), 2);
  EXPECT_EQ(mesh.positionOf(1), 3);
  EXPECT_EQ(mesh.positionOf(9), -1);
}

TEST(MeshMath, LocalShapesFollowSpecs) {
  MeshShape mesh = mesh42();
  std::vector<int64_t> local;
  // Seed 000: a f32[8,16] with P('i', 'j') -> f32[2,8].
  ASSERT_TRUE(localShape(mesh, {8, 16}, {{0}, {1}}, local));
  EXPECT_EQ(local, (std::vector<int64_t>{2, 8}));
  // Specs may be shorter than the rank; P() replicates.
  ASSERT_TRUE(localShape(mesh, {8, 16}, {{0}}, local));
  EXPECT_EQ(local, (std::vector<int64_t>{2, 16}));
  ASSERT_TRUE(localShape(mesh, {8, 16}, {}, local));
  EXPECT_EQ(local, (std::vector<int64_t>{8, 16}));
  // P(('i', 'j')) splits one dimension 8 ways.
  ASSERT_TRUE(localShape(mesh, {512}, {{0, 1}}, local));
  EXPECT_EQ(local, (std::vector<int64_t>{64}));
  std::string error;
  EXPECT_FALSE(localShape(mesh, {6, 16}, {{0}}, local, &error));
  EXPECT_EQ(error, "dimension 0 of size 6 is not divisible by 4, the size of "
                   "mesh axes (\"i\")");
  EXPECT_FALSE(localShape(mesh, {8}, {{0}, {1}}, local, &error));
  EXPECT_EQ(error, "spec has 2 entries but the array has rank 1");
}

TEST(MeshMath, BlockOffsetsAndOwnership) {
  MeshShape mesh = mesh42();
  // Position 5 is (i=2, j=1).
  EXPECT_EQ(blockOffset(mesh, 5, {2, 8}, {{0}, {1}}),
            (std::vector<int64_t>{4, 8}));
  EXPECT_EQ(blockOffset(mesh, 5, {2, 16}, {{0}}), (std::vector<int64_t>{4, 0}));
  // Device order j-major within the dimension.
  EXPECT_EQ(blockOffset(mesh, 5, {1}, {{1, 0}}), (std::vector<int64_t>{6}));
  // out_specs P('i', None): only j == 0 devices own a block.
  EXPECT_TRUE(ownsOutputBlock(mesh, 4, {{0}}));
  EXPECT_FALSE(ownsOutputBlock(mesh, 5, {{0}}));
  EXPECT_TRUE(ownsOutputBlock(mesh, 0, {}));
  EXPECT_FALSE(ownsOutputBlock(mesh, 2, {}));
}

TEST(MeshMath, CopyBlockRoundTrip) {
  std::vector<int32_t> global(4 * 6);
  for (int i = 0; i < 24; ++i)
    global[i] = i;
  std::vector<int32_t> block(2 * 3);
  copyBlock({4, 6}, {2, 3}, {2, 3}, 4, global.data(), block.data(), true);
  EXPECT_EQ(block, (std::vector<int32_t>{15, 16, 17, 21, 22, 23}));
  std::vector<int32_t> back(24, -1);
  copyBlock({4, 6}, {2, 3}, {2, 3}, 4, block.data(), back.data(), false);
  EXPECT_EQ(back[15], 15);
  EXPECT_EQ(back[23], 23);
  EXPECT_EQ(back[0], -1);
}

} // namespace
