module @jit_train_step_sgd attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "fsdp"=2, "model"=2]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "fsdp", size = 2 : i64}, {name = "model", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp", "model"}]>}, %arg1: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data", "fsdp", "model"}]>}, %arg3: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp", "model"}, {}]>}, %arg4: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp", "model"}, {}]>}, %arg5: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp", "model"}, {}]>}, %arg6: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp", "model"}, {}]>}) -> (tensor<64xf32> {jax.result_info = "result[0]['b1']", sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp", "model"}]>}, tensor<64xf32> {jax.result_info = "result[0]['b2']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x64xf32> {jax.result_info = "result[0]['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data", "fsdp", "model"}]>}, tensor<64x64xf32> {jax.result_info = "result[0]['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp", "model"}, {}]>}, tensor<64x16xf32> {jax.result_info = "result[0]['w3']", sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp", "model"}, {}]>}, tensor<f32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, []>}) {
    %0 = stablehlo.dot_general %arg5, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %3 = stablehlo.add %0, %2 : tensor<16x64xf32>
    %4 = call @relu(%3) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %6 = stablehlo.compare GT, %3, %5, FLOAT : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %8 = stablehlo.dot_general %4, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %9 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %11 = stablehlo.add %8, %10 : tensor<16x64xf32>
    %12 = stablehlo.multiply %11, %11 : tensor<16x64xf32>
    %13 = stablehlo.multiply %12, %11 : tensor<16x64xf32>
    %14 = stablehlo.multiply %11, %11 : tensor<16x64xf32>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %16 = stablehlo.multiply %15, %14 : tensor<16x64xf32>
    %cst_2 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %18 = stablehlo.multiply %17, %13 : tensor<16x64xf32>
    %19 = stablehlo.add %11, %18 : tensor<16x64xf32>
    %cst_3 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %21 = stablehlo.multiply %20, %19 : tensor<16x64xf32>
    %22 = stablehlo.tanh %21 : tensor<16x64xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %24 = stablehlo.subtract %23, %22 : tensor<16x64xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %26 = stablehlo.add %25, %22 : tensor<16x64xf32>
    %cst_6 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %28 = stablehlo.multiply %27, %26 : tensor<16x64xf32>
    %29 = stablehlo.multiply %11, %28 : tensor<16x64xf32>
    %30 = stablehlo.dot_general %29, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x16xf32>) -> tensor<16x16xf32>
    %31 = stablehlo.subtract %30, %arg6 : tensor<16x16xf32>
    %32 = stablehlo.multiply %31, %31 : tensor<16x16xf32>
    %cst_7 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %34 = stablehlo.multiply %33, %31 : tensor<16x16xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %35 = stablehlo.reduce(%32 init: %cst_8) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_9 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %36 = stablehlo.divide %35, %cst_9 : tensor<f32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_11 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %37 = stablehlo.divide %cst_10, %cst_11 : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %39 = stablehlo.multiply %38, %34 : tensor<16x16xf32>
    %40 = stablehlo.dot_general %39, %29, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x16xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %41 = stablehlo.transpose %40, dims = [1, 0] : (tensor<16x64xf32>) -> tensor<64x16xf32>
    %42 = stablehlo.dot_general %39, %arg4, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x16xf32>, tensor<64x16xf32>) -> tensor<16x64xf32>
    %43 = stablehlo.multiply %11, %42 : tensor<16x64xf32>
    %44 = stablehlo.multiply %42, %28 : tensor<16x64xf32>
    %cst_12 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %46 = stablehlo.multiply %45, %43 : tensor<16x64xf32>
    %47 = stablehlo.multiply %46, %24 : tensor<16x64xf32>
    %48 = stablehlo.multiply %47, %22 : tensor<16x64xf32>
    %49 = stablehlo.add %47, %48 : tensor<16x64xf32>
    %cst_13 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %51 = stablehlo.multiply %50, %49 : tensor<16x64xf32>
    %52 = stablehlo.add %44, %51 : tensor<16x64xf32>
    %cst_14 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %54 = stablehlo.multiply %53, %51 : tensor<16x64xf32>
    %55 = stablehlo.multiply %54, %16 : tensor<16x64xf32>
    %56 = stablehlo.add %52, %55 : tensor<16x64xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %57 = stablehlo.reduce(%56 init: %cst_15) applies stablehlo.add across dimensions = [0] : (tensor<16x64xf32>, tensor<f32>) -> tensor<64xf32>
    %58 = stablehlo.reshape %57 : (tensor<64xf32>) -> tensor<1x64xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %59 = stablehlo.reduce(%58 init: %cst_16) applies stablehlo.add across dimensions = [0] : (tensor<1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %60 = stablehlo.dot_general %56, %4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<64x64xf32>
    %61 = stablehlo.transpose %60, dims = [1, 0] : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %62 = stablehlo.dot_general %56, %arg3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %64 = stablehlo.select %6, %62, %63 : tensor<16x64xi1>, tensor<16x64xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %65 = stablehlo.reduce(%64 init: %cst_18) applies stablehlo.add across dimensions = [0] : (tensor<16x64xf32>, tensor<f32>) -> tensor<64xf32>
    %66 = stablehlo.reshape %65 : (tensor<64xf32>) -> tensor<1x64xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %67 = stablehlo.reduce(%66 init: %cst_19) applies stablehlo.add across dimensions = [0] : (tensor<1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %68 = stablehlo.dot_general %64, %arg5, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<16x32xf32>) -> tensor<64x32xf32>
    %69 = stablehlo.transpose %68, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %cst_20 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %71 = stablehlo.multiply %70, %67 : tensor<64xf32>
    %72 = stablehlo.subtract %arg0, %71 : tensor<64xf32>
    %cst_21 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %73 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %74 = stablehlo.multiply %73, %59 : tensor<64xf32>
    %75 = stablehlo.subtract %arg1, %74 : tensor<64xf32>
    %cst_22 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %76 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %77 = stablehlo.multiply %76, %69 : tensor<32x64xf32>
    %78 = stablehlo.subtract %arg2, %77 : tensor<32x64xf32>
    %cst_23 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %80 = stablehlo.multiply %79, %61 : tensor<64x64xf32>
    %81 = stablehlo.subtract %arg3, %80 : tensor<64x64xf32>
    %cst_24 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %83 = stablehlo.multiply %82, %41 : tensor<64x16xf32>
    %84 = stablehlo.subtract %arg4, %83 : tensor<64x16xf32>
    return %72, %75, %78, %81, %84, %36 : tensor<64xf32>, tensor<64xf32>, tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x16xf32>, tensor<f32>
  }
  func.func private @relu(%arg0: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<16x64xf32>
    return %1 : tensor<16x64xf32>
  }
}
