module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x16xf32>) -> (tensor<4x9xf32> {jax.result_info = "result[0]"}, tensor<4x16xf32> {jax.result_info = "result[1]"}) {
    %0 = call @fft(%arg0) : (tensor<4x16xf32>) -> tensor<4x9xcomplex<f32>>
    %1 = stablehlo.abs %0 : (tensor<4x9xcomplex<f32>>) -> tensor<4x9xf32>
    %2 = call @fft(%arg0) : (tensor<4x16xf32>) -> tensor<4x9xcomplex<f32>>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3 = call @_pad(%2, %c) : (tensor<4x9xcomplex<f32>>, tensor<i32>) -> tensor<4x9xcomplex<f32>>
    %4 = call @fft_0(%3) : (tensor<4x9xcomplex<f32>>) -> tensor<4x16xf32>
    return %1, %4 : tensor<4x9xf32>, tensor<4x16xf32>
  }
  func.func private @fft(%arg0: tensor<4x16xf32>) -> tensor<4x9xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [16] : (tensor<4x16xf32>) -> tensor<4x9xcomplex<f32>>
    return %0 : tensor<4x9xcomplex<f32>>
  }
  func.func private @_pad(%arg0: tensor<4x9xcomplex<f32>>, %arg1: tensor<i32>) -> tensor<4x9xcomplex<f32>> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<complex<f32>>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<4x9xcomplex<f32>>, tensor<complex<f32>>) -> tensor<4x9xcomplex<f32>>
    return %1 : tensor<4x9xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<4x9xcomplex<f32>>) -> tensor<4x16xf32> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [16] : (tensor<4x9xcomplex<f32>>) -> tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
}
