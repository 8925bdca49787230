// Seed 000's matmul with its psum dropped: the output varies over "j" but
// out_specs omits it, so the run would silently keep one device's partial
// sum. trellis-run refuses it with the variance check's located error; with
// check_vma = false (the user's promise) it runs.
// RUN: not trellis-run %s --entry unsafe --iota 2>&1 | FileCheck %s
// RUN: trellis-run %s --entry promised --iota --quiet | FileCheck %s --check-prefix=PROMISED

// CHECK: unsafe-out-specs.mlir:[[@LINE+7]]:8: error: 'spmd.shard_map' op output #0 may vary over mesh axis "j", but out_specs[0] does not mention it
// CHECK: trellis-run: error: @unsafe fails the device-variance check (set check_vma = false on the shard_map to run it anyway)
// PROMISED: out0: float32[8,4]

trellis.mesh @mesh = <["i"=4, "j"=2]>

func.func @unsafe(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %c = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}], [{"j"}, {}]] out_specs = [[{"i"}, {}]]
      (%a, %b) : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32> {
  ^bb0(%la: tensor<2x8xf32>, %lb: tensor<8x4xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x4xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    %m = linalg.matmul ins(%la, %lb : tensor<2x8xf32>, tensor<8x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
    spmd.yield %m : tensor<2x4xf32>
  }
  return %c : tensor<8x4xf32>
}

func.func @promised(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %c = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}], [{"j"}, {}]] out_specs = [[{"i"}, {}]] check_vma = false
      (%a, %b) : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32> {
  ^bb0(%la: tensor<2x8xf32>, %lb: tensor<8x4xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x4xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    %m = linalg.matmul ins(%la, %lb : tensor<2x8xf32>, tensor<8x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
    spmd.yield %m : tensor<2x4xf32>
  }
  return %c : tensor<8x4xf32>
}
