module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<4x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}, %arg2: tensor<4x32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}, %arg3: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<4x32xf32> {jax.result_info = "result['b1']"}, tensor<4x16x32xf32> {jax.result_info = "result['w1']"}, tensor<4x32x16xf32> {jax.result_info = "result['w2']"}) {
    %0 = stablehlo.reshape %arg0 : (tensor<4x32xf32>) -> tensor<2x2x32xf32>
    %1 = stablehlo.reshape %arg1 : (tensor<4x16x32xf32>) -> tensor<2x2x16x32xf32>
    %2 = stablehlo.reshape %arg2 : (tensor<4x32x16xf32>) -> tensor<2x2x32x16xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x2x8x16xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x2x8x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x2x8x32xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x2x8x32xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x2x8x32xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x8x32xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x8x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %10:12 = stablehlo.while(%iterArg = %0, %iterArg_16 = %1, %iterArg_17 = %2, %iterArg_18 = %c, %iterArg_19 = %arg3, %iterArg_20 = %3, %iterArg_21 = %4, %iterArg_22 = %5, %iterArg_23 = %6, %iterArg_24 = %7, %iterArg_25 = %8, %iterArg_26 = %9) : tensor<2x2x32xf32>, tensor<2x2x16x32xf32>, tensor<2x2x32x16xf32>, tensor<i32>, tensor<8x16xf32>, tensor<2x2x8x16xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>
    cond {
      %c_27 = stablehlo.constant dense<2> : tensor<i32>
      %43 = stablehlo.compare LT, %iterArg_18, %c_27, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %43 : tensor<i1>
    } do {
      %43 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_18) : (tensor<2x2x32xf32>, tensor<i32>) -> tensor<2x32xf32>
      %44 = func.call @dynamic_index_in_dim_0(%iterArg_16, %iterArg_18) : (tensor<2x2x16x32xf32>, tensor<i32>) -> tensor<2x16x32xf32>
      %45 = func.call @dynamic_index_in_dim_1(%iterArg_17, %iterArg_18) : (tensor<2x2x32x16xf32>, tensor<i32>) -> tensor<2x32x16xf32>
      %46 = stablehlo.slice %43 [0:1, 0:32] : (tensor<2x32xf32>) -> tensor<1x32xf32>
      %47 = stablehlo.reshape %46 : (tensor<1x32xf32>) -> tensor<32xf32>
      %48 = stablehlo.slice %44 [0:1, 0:16, 0:32] : (tensor<2x16x32xf32>) -> tensor<1x16x32xf32>
      %49 = stablehlo.reshape %48 : (tensor<1x16x32xf32>) -> tensor<16x32xf32>
      %50 = stablehlo.slice %45 [0:1, 0:32, 0:16] : (tensor<2x32x16xf32>) -> tensor<1x32x16xf32>
      %51 = stablehlo.reshape %50 : (tensor<1x32x16xf32>) -> tensor<32x16xf32>
      %52:8 = func.call @closed_call(%iterArg_19, %47, %49, %51) : (tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>)
      %53 = stablehlo.slice %43 [1:2, 0:32] : (tensor<2x32xf32>) -> tensor<1x32xf32>
      %54 = stablehlo.reshape %53 : (tensor<1x32xf32>) -> tensor<32xf32>
      %55 = stablehlo.slice %44 [1:2, 0:16, 0:32] : (tensor<2x16x32xf32>) -> tensor<1x16x32xf32>
      %56 = stablehlo.reshape %55 : (tensor<1x16x32xf32>) -> tensor<16x32xf32>
      %57 = stablehlo.slice %45 [1:2, 0:32, 0:16] : (tensor<2x32x16xf32>) -> tensor<1x32x16xf32>
      %58 = stablehlo.reshape %57 : (tensor<1x32x16xf32>) -> tensor<32x16xf32>
      %59:8 = func.call @closed_call(%52#0, %54, %56, %58) : (tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>)
      %60 = stablehlo.broadcast_in_dim %52#1, dims = [1, 2] : (tensor<8x16xf32>) -> tensor<1x8x16xf32>
      %61 = stablehlo.broadcast_in_dim %59#1, dims = [1, 2] : (tensor<8x16xf32>) -> tensor<1x8x16xf32>
      %62 = stablehlo.concatenate %60, %61, dim = 0 : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<2x8x16xf32>
      %63 = stablehlo.broadcast_in_dim %52#2, dims = [1, 2] : (tensor<8x32xf32>) -> tensor<1x8x32xf32>
      %64 = stablehlo.broadcast_in_dim %59#2, dims = [1, 2] : (tensor<8x32xf32>) -> tensor<1x8x32xf32>
      %65 = stablehlo.concatenate %63, %64, dim = 0 : (tensor<1x8x32xf32>, tensor<1x8x32xf32>) -> tensor<2x8x32xf32>
      %66 = stablehlo.broadcast_in_dim %52#3, dims = [1, 2] : (tensor<8x32xf32>) -> tensor<1x8x32xf32>
      %67 = stablehlo.broadcast_in_dim %59#3, dims = [1, 2] : (tensor<8x32xf32>) -> tensor<1x8x32xf32>
      %68 = stablehlo.concatenate %66, %67, dim = 0 : (tensor<1x8x32xf32>, tensor<1x8x32xf32>) -> tensor<2x8x32xf32>
      %69 = stablehlo.broadcast_in_dim %52#4, dims = [1, 2] : (tensor<8x32xf32>) -> tensor<1x8x32xf32>
      %70 = stablehlo.broadcast_in_dim %59#4, dims = [1, 2] : (tensor<8x32xf32>) -> tensor<1x8x32xf32>
      %71 = stablehlo.concatenate %69, %70, dim = 0 : (tensor<1x8x32xf32>, tensor<1x8x32xf32>) -> tensor<2x8x32xf32>
      %72 = stablehlo.broadcast_in_dim %52#5, dims = [1, 2] : (tensor<8x32xf32>) -> tensor<1x8x32xf32>
      %73 = stablehlo.broadcast_in_dim %59#5, dims = [1, 2] : (tensor<8x32xf32>) -> tensor<1x8x32xf32>
      %74 = stablehlo.concatenate %72, %73, dim = 0 : (tensor<1x8x32xf32>, tensor<1x8x32xf32>) -> tensor<2x8x32xf32>
      %75 = stablehlo.broadcast_in_dim %52#6, dims = [1, 2] : (tensor<8x32xf32>) -> tensor<1x8x32xf32>
      %76 = stablehlo.broadcast_in_dim %59#6, dims = [1, 2] : (tensor<8x32xf32>) -> tensor<1x8x32xf32>
      %77 = stablehlo.concatenate %75, %76, dim = 0 : (tensor<1x8x32xf32>, tensor<1x8x32xf32>) -> tensor<2x8x32xf32>
      %78 = stablehlo.broadcast_in_dim %52#7, dims = [1, 2] : (tensor<8x32xf32>) -> tensor<1x8x32xf32>
      %79 = stablehlo.broadcast_in_dim %59#7, dims = [1, 2] : (tensor<8x32xf32>) -> tensor<1x8x32xf32>
      %80 = stablehlo.concatenate %78, %79, dim = 0 : (tensor<1x8x32xf32>, tensor<1x8x32xf32>) -> tensor<2x8x32xf32>
      %81 = func.call @dynamic_update_index_in_dim(%iterArg_20, %62, %iterArg_18) : (tensor<2x2x8x16xf32>, tensor<2x8x16xf32>, tensor<i32>) -> tensor<2x2x8x16xf32>
      %82 = func.call @dynamic_update_index_in_dim_2(%iterArg_21, %65, %iterArg_18) : (tensor<2x2x8x32xf32>, tensor<2x8x32xf32>, tensor<i32>) -> tensor<2x2x8x32xf32>
      %83 = func.call @dynamic_update_index_in_dim_2(%iterArg_22, %68, %iterArg_18) : (tensor<2x2x8x32xf32>, tensor<2x8x32xf32>, tensor<i32>) -> tensor<2x2x8x32xf32>
      %84 = func.call @dynamic_update_index_in_dim_2(%iterArg_23, %71, %iterArg_18) : (tensor<2x2x8x32xf32>, tensor<2x8x32xf32>, tensor<i32>) -> tensor<2x2x8x32xf32>
      %85 = func.call @dynamic_update_index_in_dim_2(%iterArg_24, %74, %iterArg_18) : (tensor<2x2x8x32xf32>, tensor<2x8x32xf32>, tensor<i32>) -> tensor<2x2x8x32xf32>
      %86 = func.call @dynamic_update_index_in_dim_2(%iterArg_25, %77, %iterArg_18) : (tensor<2x2x8x32xf32>, tensor<2x8x32xf32>, tensor<i32>) -> tensor<2x2x8x32xf32>
      %87 = func.call @dynamic_update_index_in_dim_2(%iterArg_26, %80, %iterArg_18) : (tensor<2x2x8x32xf32>, tensor<2x8x32xf32>, tensor<i32>) -> tensor<2x2x8x32xf32>
      %c_27 = stablehlo.constant dense<1> : tensor<i32>
      %88 = stablehlo.add %iterArg_18, %c_27 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_16, %iterArg_17, %88, %59#0, %81, %82, %83, %84, %85, %86, %87 : tensor<2x2x32xf32>, tensor<2x2x16x32xf32>, tensor<2x2x32x16xf32>, tensor<i32>, tensor<8x16xf32>, tensor<2x2x8x16xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>
    }
    %11 = stablehlo.reshape %10#5 : (tensor<2x2x8x16xf32>) -> tensor<4x8x16xf32>
    %12 = stablehlo.reshape %10#6 : (tensor<2x2x8x32xf32>) -> tensor<4x8x32xf32>
    %13 = stablehlo.reshape %10#7 : (tensor<2x2x8x32xf32>) -> tensor<4x8x32xf32>
    %14 = stablehlo.reshape %10#8 : (tensor<2x2x8x32xf32>) -> tensor<4x8x32xf32>
    %15 = stablehlo.reshape %10#9 : (tensor<2x2x8x32xf32>) -> tensor<4x8x32xf32>
    %16 = stablehlo.reshape %10#10 : (tensor<2x2x8x32xf32>) -> tensor<4x8x32xf32>
    %17 = stablehlo.reshape %10#11 : (tensor<2x2x8x32xf32>) -> tensor<4x8x32xf32>
    %18 = stablehlo.multiply %10#4, %10#4 : tensor<8x16xf32>
    %cst_6 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %20 = stablehlo.multiply %19, %10#4 : tensor<8x16xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.reduce(%18 init: %cst_7) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_8 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %22 = stablehlo.divide %21, %cst_8 : tensor<f32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_11 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %24 = stablehlo.divide %cst_10, %cst_11 : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %26 = stablehlo.multiply %25, %20 : tensor<8x16xf32>
    %27 = stablehlo.reshape %arg1 : (tensor<4x16x32xf32>) -> tensor<2x2x16x32xf32>
    %28 = stablehlo.reshape %11 : (tensor<4x8x16xf32>) -> tensor<2x2x8x16xf32>
    %29 = stablehlo.reshape %12 : (tensor<4x8x32xf32>) -> tensor<2x2x8x32xf32>
    %30 = stablehlo.reshape %13 : (tensor<4x8x32xf32>) -> tensor<2x2x8x32xf32>
    %31 = stablehlo.reshape %14 : (tensor<4x8x32xf32>) -> tensor<2x2x8x32xf32>
    %32 = stablehlo.reshape %15 : (tensor<4x8x32xf32>) -> tensor<2x2x8x32xf32>
    %33 = stablehlo.reshape %16 : (tensor<4x8x32xf32>) -> tensor<2x2x8x32xf32>
    %34 = stablehlo.reshape %arg2 : (tensor<4x32x16xf32>) -> tensor<2x2x32x16xf32>
    %35 = stablehlo.reshape %17 : (tensor<4x8x32xf32>) -> tensor<2x2x8x32xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x2x32xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x2x16x32xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x2x32x16xf32>
    %c_15 = stablehlo.constant dense<0> : tensor<i32>
    %39:14 = stablehlo.while(%iterArg = %27, %iterArg_16 = %28, %iterArg_17 = %29, %iterArg_18 = %30, %iterArg_19 = %31, %iterArg_20 = %32, %iterArg_21 = %33, %iterArg_22 = %34, %iterArg_23 = %35, %iterArg_24 = %c_15, %iterArg_25 = %26, %iterArg_26 = %36, %iterArg_27 = %37, %iterArg_28 = %38) : tensor<2x2x16x32xf32>, tensor<2x2x8x16xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x32x16xf32>, tensor<2x2x8x32xf32>, tensor<i32>, tensor<8x16xf32>, tensor<2x2x32xf32>, tensor<2x2x16x32xf32>, tensor<2x2x32x16xf32>
    cond {
      %c_29 = stablehlo.constant dense<2> : tensor<i32>
      %43 = stablehlo.compare LT, %iterArg_24, %c_29, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %43 : tensor<i1>
    } do {
      %c_29 = stablehlo.constant dense<2> : tensor<i32>
      %43 = stablehlo.subtract %c_29, %iterArg_24 : tensor<i32>
      %c_30 = stablehlo.constant dense<1> : tensor<i32>
      %44 = stablehlo.subtract %43, %c_30 : tensor<i32>
      %45 = func.call @dynamic_index_in_dim_0(%iterArg, %44) : (tensor<2x2x16x32xf32>, tensor<i32>) -> tensor<2x16x32xf32>
      %46 = func.call @dynamic_index_in_dim_3(%iterArg_16, %44) : (tensor<2x2x8x16xf32>, tensor<i32>) -> tensor<2x8x16xf32>
      %47 = func.call @dynamic_index_in_dim_4(%iterArg_17, %44) : (tensor<2x2x8x32xf32>, tensor<i32>) -> tensor<2x8x32xf32>
      %48 = func.call @dynamic_index_in_dim_4(%iterArg_18, %44) : (tensor<2x2x8x32xf32>, tensor<i32>) -> tensor<2x8x32xf32>
      %49 = func.call @dynamic_index_in_dim_4(%iterArg_19, %44) : (tensor<2x2x8x32xf32>, tensor<i32>) -> tensor<2x8x32xf32>
      %50 = func.call @dynamic_index_in_dim_4(%iterArg_20, %44) : (tensor<2x2x8x32xf32>, tensor<i32>) -> tensor<2x8x32xf32>
      %51 = func.call @dynamic_index_in_dim_4(%iterArg_21, %44) : (tensor<2x2x8x32xf32>, tensor<i32>) -> tensor<2x8x32xf32>
      %52 = func.call @dynamic_index_in_dim_1(%iterArg_22, %44) : (tensor<2x2x32x16xf32>, tensor<i32>) -> tensor<2x32x16xf32>
      %53 = func.call @dynamic_index_in_dim_4(%iterArg_23, %44) : (tensor<2x2x8x32xf32>, tensor<i32>) -> tensor<2x8x32xf32>
      %54 = stablehlo.slice %45 [1:2, 0:16, 0:32] : (tensor<2x16x32xf32>) -> tensor<1x16x32xf32>
      %55 = stablehlo.reshape %54 : (tensor<1x16x32xf32>) -> tensor<16x32xf32>
      %56 = stablehlo.slice %46 [1:2, 0:8, 0:16] : (tensor<2x8x16xf32>) -> tensor<1x8x16xf32>
      %57 = stablehlo.reshape %56 : (tensor<1x8x16xf32>) -> tensor<8x16xf32>
      %58 = stablehlo.slice %47 [1:2, 0:8, 0:32] : (tensor<2x8x32xf32>) -> tensor<1x8x32xf32>
      %59 = stablehlo.reshape %58 : (tensor<1x8x32xf32>) -> tensor<8x32xf32>
      %60 = stablehlo.slice %48 [1:2, 0:8, 0:32] : (tensor<2x8x32xf32>) -> tensor<1x8x32xf32>
      %61 = stablehlo.reshape %60 : (tensor<1x8x32xf32>) -> tensor<8x32xf32>
      %62 = stablehlo.slice %49 [1:2, 0:8, 0:32] : (tensor<2x8x32xf32>) -> tensor<1x8x32xf32>
      %63 = stablehlo.reshape %62 : (tensor<1x8x32xf32>) -> tensor<8x32xf32>
      %64 = stablehlo.slice %50 [1:2, 0:8, 0:32] : (tensor<2x8x32xf32>) -> tensor<1x8x32xf32>
      %65 = stablehlo.reshape %64 : (tensor<1x8x32xf32>) -> tensor<8x32xf32>
      %66 = stablehlo.slice %51 [1:2, 0:8, 0:32] : (tensor<2x8x32xf32>) -> tensor<1x8x32xf32>
      %67 = stablehlo.reshape %66 : (tensor<1x8x32xf32>) -> tensor<8x32xf32>
      %68 = stablehlo.slice %52 [1:2, 0:32, 0:16] : (tensor<2x32x16xf32>) -> tensor<1x32x16xf32>
      %69 = stablehlo.reshape %68 : (tensor<1x32x16xf32>) -> tensor<32x16xf32>
      %70 = stablehlo.slice %53 [1:2, 0:8, 0:32] : (tensor<2x8x32xf32>) -> tensor<1x8x32xf32>
      %71 = stablehlo.reshape %70 : (tensor<1x8x32xf32>) -> tensor<8x32xf32>
      %72:4 = func.call @closed_call_5(%iterArg_25, %55, %57, %59, %61, %63, %65, %67, %69, %71) : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<32x16xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>)
      %73 = stablehlo.slice %45 [0:1, 0:16, 0:32] : (tensor<2x16x32xf32>) -> tensor<1x16x32xf32>
      %74 = stablehlo.reshape %73 : (tensor<1x16x32xf32>) -> tensor<16x32xf32>
      %75 = stablehlo.slice %46 [0:1, 0:8, 0:16] : (tensor<2x8x16xf32>) -> tensor<1x8x16xf32>
      %76 = stablehlo.reshape %75 : (tensor<1x8x16xf32>) -> tensor<8x16xf32>
      %77 = stablehlo.slice %47 [0:1, 0:8, 0:32] : (tensor<2x8x32xf32>) -> tensor<1x8x32xf32>
      %78 = stablehlo.reshape %77 : (tensor<1x8x32xf32>) -> tensor<8x32xf32>
      %79 = stablehlo.slice %48 [0:1, 0:8, 0:32] : (tensor<2x8x32xf32>) -> tensor<1x8x32xf32>
      %80 = stablehlo.reshape %79 : (tensor<1x8x32xf32>) -> tensor<8x32xf32>
      %81 = stablehlo.slice %49 [0:1, 0:8, 0:32] : (tensor<2x8x32xf32>) -> tensor<1x8x32xf32>
      %82 = stablehlo.reshape %81 : (tensor<1x8x32xf32>) -> tensor<8x32xf32>
      %83 = stablehlo.slice %50 [0:1, 0:8, 0:32] : (tensor<2x8x32xf32>) -> tensor<1x8x32xf32>
      %84 = stablehlo.reshape %83 : (tensor<1x8x32xf32>) -> tensor<8x32xf32>
      %85 = stablehlo.slice %51 [0:1, 0:8, 0:32] : (tensor<2x8x32xf32>) -> tensor<1x8x32xf32>
      %86 = stablehlo.reshape %85 : (tensor<1x8x32xf32>) -> tensor<8x32xf32>
      %87 = stablehlo.slice %52 [0:1, 0:32, 0:16] : (tensor<2x32x16xf32>) -> tensor<1x32x16xf32>
      %88 = stablehlo.reshape %87 : (tensor<1x32x16xf32>) -> tensor<32x16xf32>
      %89 = stablehlo.slice %53 [0:1, 0:8, 0:32] : (tensor<2x8x32xf32>) -> tensor<1x8x32xf32>
      %90 = stablehlo.reshape %89 : (tensor<1x8x32xf32>) -> tensor<8x32xf32>
      %91:4 = func.call @closed_call_5(%72#0, %74, %76, %78, %80, %82, %84, %86, %88, %90) : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<32x16xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>)
      %92 = stablehlo.broadcast_in_dim %91#1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
      %93 = stablehlo.broadcast_in_dim %72#1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
      %94 = stablehlo.concatenate %92, %93, dim = 0 : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<2x32xf32>
      %95 = stablehlo.broadcast_in_dim %91#2, dims = [1, 2] : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
      %96 = stablehlo.broadcast_in_dim %72#2, dims = [1, 2] : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
      %97 = stablehlo.concatenate %95, %96, dim = 0 : (tensor<1x16x32xf32>, tensor<1x16x32xf32>) -> tensor<2x16x32xf32>
      %98 = stablehlo.broadcast_in_dim %91#3, dims = [1, 2] : (tensor<32x16xf32>) -> tensor<1x32x16xf32>
      %99 = stablehlo.broadcast_in_dim %72#3, dims = [1, 2] : (tensor<32x16xf32>) -> tensor<1x32x16xf32>
      %100 = stablehlo.concatenate %98, %99, dim = 0 : (tensor<1x32x16xf32>, tensor<1x32x16xf32>) -> tensor<2x32x16xf32>
      %101 = func.call @dynamic_update_index_in_dim_6(%iterArg_26, %94, %44) : (tensor<2x2x32xf32>, tensor<2x32xf32>, tensor<i32>) -> tensor<2x2x32xf32>
      %102 = func.call @dynamic_update_index_in_dim_7(%iterArg_27, %97, %44) : (tensor<2x2x16x32xf32>, tensor<2x16x32xf32>, tensor<i32>) -> tensor<2x2x16x32xf32>
      %103 = func.call @dynamic_update_index_in_dim_8(%iterArg_28, %100, %44) : (tensor<2x2x32x16xf32>, tensor<2x32x16xf32>, tensor<i32>) -> tensor<2x2x32x16xf32>
      %c_31 = stablehlo.constant dense<1> : tensor<i32>
      %104 = stablehlo.add %iterArg_24, %c_31 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_16, %iterArg_17, %iterArg_18, %iterArg_19, %iterArg_20, %iterArg_21, %iterArg_22, %iterArg_23, %104, %91#0, %101, %102, %103 : tensor<2x2x16x32xf32>, tensor<2x2x8x16xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x8x32xf32>, tensor<2x2x32x16xf32>, tensor<2x2x8x32xf32>, tensor<i32>, tensor<8x16xf32>, tensor<2x2x32xf32>, tensor<2x2x16x32xf32>, tensor<2x2x32x16xf32>
    }
    %40 = stablehlo.reshape %39#11 : (tensor<2x2x32xf32>) -> tensor<4x32xf32>
    %41 = stablehlo.reshape %39#12 : (tensor<2x2x16x32xf32>) -> tensor<4x16x32xf32>
    %42 = stablehlo.reshape %39#13 : (tensor<2x2x32x16xf32>) -> tensor<4x32x16xf32>
    return %40, %41, %42 : tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<2x2x32xf32>, %arg1: tensor<i32>) -> tensor<2x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 2, 32] : (tensor<2x2x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x2x32xf32>) -> tensor<2x32xf32>
    return %1 : tensor<2x32xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<2x2x16x32xf32>, %arg1: tensor<i32>) -> tensor<2x16x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 2, 16, 32] : (tensor<2x2x16x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x16x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x2x16x32xf32>) -> tensor<2x16x32xf32>
    return %1 : tensor<2x16x32xf32>
  }
  func.func private @dynamic_index_in_dim_1(%arg0: tensor<2x2x32x16xf32>, %arg1: tensor<i32>) -> tensor<2x32x16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 2, 32, 16] : (tensor<2x2x32x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x32x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x2x32x16xf32>) -> tensor<2x32x16xf32>
    return %1 : tensor<2x32x16xf32>
  }
  func.func private @closed_call(%arg0: tensor<8x16xf32>, %arg1: tensor<32xf32>, %arg2: tensor<16x32xf32>, %arg3: tensor<32x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %3 = stablehlo.add %0, %2 : tensor<8x32xf32>
    %4 = stablehlo.multiply %3, %3 : tensor<8x32xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<8x32xf32>
    %6 = stablehlo.multiply %3, %3 : tensor<8x32xf32>
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %8 = stablehlo.multiply %7, %6 : tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %10 = stablehlo.multiply %9, %5 : tensor<8x32xf32>
    %11 = stablehlo.add %3, %10 : tensor<8x32xf32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %13 = stablehlo.multiply %12, %11 : tensor<8x32xf32>
    %14 = stablehlo.tanh %13 : tensor<8x32xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %16 = stablehlo.subtract %15, %14 : tensor<8x32xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %18 = stablehlo.add %17, %14 : tensor<8x32xf32>
    %cst_4 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %20 = stablehlo.multiply %19, %18 : tensor<8x32xf32>
    %21 = stablehlo.multiply %3, %20 : tensor<8x32xf32>
    %22 = stablehlo.dot_general %21, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    %23 = stablehlo.add %arg0, %22 : tensor<8x16xf32>
    return %23, %arg0, %8, %14, %16, %20, %3, %21 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<2x2x8x16xf32>, %arg1: tensor<2x8x16xf32>, %arg2: tensor<i32>) -> tensor<2x2x8x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<2x8x16xf32>) -> tensor<1x2x8x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<2x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x16xf32>
    return %1 : tensor<2x2x8x16xf32>
  }
  func.func private @dynamic_update_index_in_dim_2(%arg0: tensor<2x2x8x32xf32>, %arg1: tensor<2x8x32xf32>, %arg2: tensor<i32>) -> tensor<2x2x8x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<2x8x32xf32>) -> tensor<1x2x8x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<2x2x8x32xf32>, tensor<1x2x8x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x32xf32>
    return %1 : tensor<2x2x8x32xf32>
  }
  func.func private @dynamic_index_in_dim_3(%arg0: tensor<2x2x8x16xf32>, %arg1: tensor<i32>) -> tensor<2x8x16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 2, 8, 16] : (tensor<2x2x8x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x8x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x2x8x16xf32>) -> tensor<2x8x16xf32>
    return %1 : tensor<2x8x16xf32>
  }
  func.func private @dynamic_index_in_dim_4(%arg0: tensor<2x2x8x32xf32>, %arg1: tensor<i32>) -> tensor<2x8x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 2, 8, 32] : (tensor<2x2x8x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x8x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x2x8x32xf32>) -> tensor<2x8x32xf32>
    return %1 : tensor<2x8x32xf32>
  }
  func.func private @closed_call_5(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<8x16xf32>, %arg3: tensor<8x32xf32>, %arg4: tensor<8x32xf32>, %arg5: tensor<8x32xf32>, %arg6: tensor<8x32xf32>, %arg7: tensor<8x32xf32>, %arg8: tensor<32x16xf32>, %arg9: tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg9, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
    %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %2 = stablehlo.dot_general %arg0, %arg8, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
    %3 = stablehlo.multiply %arg7, %2 : tensor<8x32xf32>
    %4 = stablehlo.multiply %2, %arg6 : tensor<8x32xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %6 = stablehlo.multiply %5, %3 : tensor<8x32xf32>
    %7 = stablehlo.multiply %6, %arg5 : tensor<8x32xf32>
    %8 = stablehlo.multiply %7, %arg4 : tensor<8x32xf32>
    %9 = stablehlo.add %7, %8 : tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %11 = stablehlo.multiply %10, %9 : tensor<8x32xf32>
    %12 = stablehlo.add %4, %11 : tensor<8x32xf32>
    %cst_1 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %14 = stablehlo.multiply %13, %11 : tensor<8x32xf32>
    %15 = stablehlo.multiply %14, %arg3 : tensor<8x32xf32>
    %16 = stablehlo.add %12, %15 : tensor<8x32xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.reduce(%16 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %18 = stablehlo.reshape %17 : (tensor<32xf32>) -> tensor<1x32xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.reduce(%18 init: %cst_3) applies stablehlo.add across dimensions = [0] : (tensor<1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %20 = stablehlo.dot_general %16, %arg2, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
    %21 = stablehlo.transpose %20, dims = [1, 0] : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %22 = stablehlo.dot_general %16, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<16x32xf32>) -> tensor<8x16xf32>
    %23 = stablehlo.add %arg0, %22 : tensor<8x16xf32>
    return %23, %19, %21, %1 : tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>
  }
  func.func private @dynamic_update_index_in_dim_6(%arg0: tensor<2x2x32xf32>, %arg1: tensor<2x32xf32>, %arg2: tensor<i32>) -> tensor<2x2x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<2x32xf32>) -> tensor<1x2x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<2x2x32xf32>, tensor<1x2x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x32xf32>
    return %1 : tensor<2x2x32xf32>
  }
  func.func private @dynamic_update_index_in_dim_7(%arg0: tensor<2x2x16x32xf32>, %arg1: tensor<2x16x32xf32>, %arg2: tensor<i32>) -> tensor<2x2x16x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<2x16x32xf32>) -> tensor<1x2x16x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<2x2x16x32xf32>, tensor<1x2x16x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x32xf32>
    return %1 : tensor<2x2x16x32xf32>
  }
  func.func private @dynamic_update_index_in_dim_8(%arg0: tensor<2x2x32x16xf32>, %arg1: tensor<2x32x16xf32>, %arg2: tensor<i32>) -> tensor<2x2x32x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<2x32x16xf32>) -> tensor<1x2x32x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<2x2x32x16xf32>, tensor<1x2x32x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x32x16xf32>
    return %1 : tensor<2x2x32x16xf32>
  }
}
