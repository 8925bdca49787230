// A mesh of 65 axes is beyond what the variance analysis tracks (a 64-bit
// mask per value): reported, not mis-analysed.
// RUN: trellis-opt %s --spmd-check-variance -verify-diagnostics -o /dev/null

trellis.mesh @big = <["a0"=1, "a1"=1, "a2"=1, "a3"=1, "a4"=1, "a5"=1, "a6"=1, "a7"=1, "a8"=1, "a9"=1, "a10"=1, "a11"=1, "a12"=1, "a13"=1, "a14"=1, "a15"=1, "a16"=1, "a17"=1, "a18"=1, "a19"=1, "a20"=1, "a21"=1, "a22"=1, "a23"=1, "a24"=1, "a25"=1, "a26"=1, "a27"=1, "a28"=1, "a29"=1, "a30"=1, "a31"=1, "a32"=1, "a33"=1, "a34"=1, "a35"=1, "a36"=1, "a37"=1, "a38"=1, "a39"=1, "a40"=1, "a41"=1, "a42"=1, "a43"=1, "a44"=1, "a45"=1, "a46"=1, "a47"=1, "a48"=1, "a49"=1, "a50"=1, "a51"=1, "a52"=1, "a53"=1, "a54"=1, "a55"=1, "a56"=1, "a57"=1, "a58"=1, "a59"=1, "a60"=1, "a61"=1, "a62"=1, "a63"=1, "a64"=1]>
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{spmd-check-variance supports meshes of at most 64 axes}}
  %r = spmd.shard_map @big in_specs = [[{}]] out_specs = [[{}]] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<4xf32>):
    spmd.yield %b : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
