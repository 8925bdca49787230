// trellis-run --show-shardings draws which devices hold which block of
// each input and output, as the partitioned program lays them out: a grid
// of blocks (rows along dimension 0) for 1-D and 2-D arrays, one line per
// block otherwise; replicated arrays are one block every device holds.
// RUN: trellis-run %s --entry on8 --show-shardings --quiet | FileCheck %s --check-prefix=M8
// RUN: trellis-run %s --entry on2x4 --show-shardings --quiet | FileCheck %s --check-prefix=M24
// RUN: trellis-run %s --entry on2x2x2 --show-shardings --quiet | FileCheck %s --check-prefix=M222

trellis.mesh @m8 = <["d"=8]>
trellis.mesh @m24 = <["x"=2, "y"=4]>
trellis.mesh @m222 = <["a"=2, "b"=2, "c"=2]>

// M8: mesh ("d"=8), 8 devices
// M8-NEXT: arg0: float32[16]
// M8-NEXT:   +---------+---------+---------+---------+---------+---------+---------+---------+
// M8-NEXT:   |  [0:2]  |  [2:4]  |  [4:6]  |  [6:8]  | [8:10]  | [10:12] | [12:14] | [14:16] |
// M8-NEXT:   |  dev 0  |  dev 1  |  dev 2  |  dev 3  |  dev 4  |  dev 5  |  dev 6  |  dev 7  |
// M8-NEXT:   +---------+---------+---------+---------+---------+---------+---------+---------+
// An argument without a sharding is laid out as propagation found it
// (here: as the result it becomes).
// M8-NEXT: arg1: float32[4,8]
// M8-NEXT:   +------------+------------+------------+------------+------------+------------+------------+------------+
// M8-NEXT:   | [0:4, 0:1] | [0:4, 1:2] | [0:4, 2:3] | [0:4, 3:4] | [0:4, 4:5] | [0:4, 5:6] | [0:4, 6:7] | [0:4, 7:8] |
// M8-NEXT:   |   dev 0    |   dev 1    |   dev 2    |   dev 3    |   dev 4    |   dev 5    |   dev 6    |   dev 7    |
// M8-NEXT:   +------------+------------+------------+------------+------------+------------+------------+------------+
// M8-NEXT: out0: float32[16]
// M8: out1: float32[4,8]
func.func @on8(%v: tensor<16xf32> {trellis.sharding = #trellis.sharding<@m8, [{"d"}]>},
               %r: tensor<4x8xf32>)
    -> (tensor<16xf32> {trellis.sharding = #trellis.sharding<@m8, [{"d"}]>},
        tensor<4x8xf32> {trellis.sharding = #trellis.sharding<@m8, [{}, {"d"}]>}) {
  return %v, %r : tensor<16xf32>, tensor<4x8xf32>
}

// Rows over x and columns over y; a vector over y is held by the two x
// devices of each column; a replicated array by every device; an output
// split over (y, x) on its rows: y major.
// M24: mesh ("x"=2, "y"=4), 8 devices
// M24-NEXT: arg0: float32[8,16]
// M24-NEXT:   +--------------+--------------+--------------+--------------+
// M24-NEXT:   |  [0:4, 0:4]  |  [0:4, 4:8]  | [0:4, 8:12]  | [0:4, 12:16] |
// M24-NEXT:   |    dev 0     |    dev 1     |    dev 2     |    dev 3     |
// M24-NEXT:   +--------------+--------------+--------------+--------------+
// M24-NEXT:   |  [4:8, 0:4]  |  [4:8, 4:8]  | [4:8, 8:12]  | [4:8, 12:16] |
// M24-NEXT:   |    dev 4     |    dev 5     |    dev 6     |    dev 7     |
// M24-NEXT:   +--------------+--------------+--------------+--------------+
// M24-NEXT: arg1: float32[16]
// M24-NEXT:   +----------+----------+----------+----------+
// M24-NEXT:   |  [0:4]   |  [4:8]   |  [8:12]  | [12:16]  |
// M24-NEXT:   | devs 0,4 | devs 1,5 | devs 2,6 | devs 3,7 |
// M24-NEXT:   +----------+----------+----------+----------+
// M24-NEXT: arg2: float32[4,4]
// M24-NEXT:   +------------+
// M24-NEXT:   | [0:4, 0:4] |
// M24-NEXT:   |  devs 0-7  |
// M24-NEXT:   +------------+
// M24-NEXT: out0: float32[8,16]
// M24-NEXT:   +-------------+
// M24-NEXT:   | [0:1, 0:16] |
// M24-NEXT:   |    dev 0    |
// M24-NEXT:   +-------------+
// M24-NEXT:   | [1:2, 0:16] |
// M24-NEXT:   |    dev 4    |
// M24-NEXT:   +-------------+
// M24-NEXT:   | [2:3, 0:16] |
// M24-NEXT:   |    dev 1    |
func.func @on2x4(%a: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m24, [{"x"}, {"y"}]>},
                 %b: tensor<16xf32> {trellis.sharding = #trellis.sharding<@m24, [{"y"}]>},
                 %c: tensor<4x4xf32>)
    -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m24, [{"y", "x"}, {}]>}, tensor<4x4xf32>) {
  return %a, %c : tensor<8x16xf32>, tensor<4x4xf32>
}

// A rank-3 array: one line per block; replicated over c.
// M222: mesh ("a"=2, "b"=2, "c"=2), 8 devices
// M222-NEXT: arg0: float32[4,4,2]
// M222-NEXT:   [0:2, 0:2, 0:2] devs 0,1
// M222-NEXT:   [0:2, 2:4, 0:2] devs 2,3
// M222-NEXT:   [2:4, 0:2, 0:2] devs 4,5
// M222-NEXT:   [2:4, 2:4, 0:2] devs 6,7
// M222-NEXT: out0: float32[]
// M222-NEXT:   [] devs 0-7
// M222: out0: float32[]
func.func @on2x2x2(%a: tensor<4x4x2xf32> {trellis.sharding = #trellis.sharding<@m222, [{"a"}, {"b"}, {}]>})
    -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%a : tensor<4x4x2xf32>) outs(%f : tensor<f32>) dimensions = [0, 1, 2]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<f32>
}
