module @jit_moe_dropless attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x8xf32>, %arg1: tensor<8x16x32xf32>, %arg2: tensor<8x32x16xf32>, %arg3: tensor<12x16xf32>) -> (tensor<12x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg3, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<12x16xf32>, tensor<16x8xf32>) -> tensor<12x8xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<12x8xf32>, tensor<f32>) -> tensor<12xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %3 = stablehlo.maximum %2, %1 : tensor<12xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<12xf32>) -> tensor<12x1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<12x1xf32>) -> tensor<12x8xf32>
    %6 = stablehlo.subtract %0, %5 : tensor<12x8xf32>
    %7 = stablehlo.exponential %6 : tensor<12x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<12x8xf32>, tensor<f32>) -> tensor<12xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<12xf32>) -> tensor<12x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<12x1xf32>) -> tensor<12x8xf32>
    %11 = stablehlo.divide %7, %10 : tensor<12x8xf32>
    %values, %indices = chlo.top_k(%11, k = 2) : tensor<12x8xf32> -> (tensor<12x2xf32>, tensor<12x2xi32>)
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.reduce(%values init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<12x2xf32>, tensor<f32>) -> tensor<12xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<12xf32>) -> tensor<12x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<12x1xf32>) -> tensor<12x2xf32>
    %15 = stablehlo.divide %values, %14 : tensor<12x2xf32>
    %16 = stablehlo.reshape %indices : (tensor<12x2xi32>) -> tensor<24xi32>
    %17 = call @argsort(%16) : (tensor<24xi32>) -> tensor<24xi32>
    %c = stablehlo.constant dense<2> : tensor<i32>
    %18 = call @floor_divide(%17, %c) : (tensor<24xi32>, tensor<i32>) -> tensor<24xi32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %19 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %20 = stablehlo.compare LT, %18, %19, SIGNED : (tensor<24xi32>, tensor<24xi32>) -> tensor<24xi1>
    %c_4 = stablehlo.constant dense<12> : tensor<i32>
    %21 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %22 = stablehlo.add %18, %21 : tensor<24xi32>
    %23 = stablehlo.select %20, %22, %18 : tensor<24xi1>, tensor<24xi32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0] : (tensor<24xi32>) -> tensor<24x1xi32>
    %25 = "stablehlo.gather"(%arg3, %24) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<12x16xf32>, tensor<24x1xi32>) -> tensor<24x16xf32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %26 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %27 = stablehlo.compare LT, %17, %26, SIGNED : (tensor<24xi32>, tensor<24xi32>) -> tensor<24xi1>
    %c_6 = stablehlo.constant dense<24> : tensor<i32>
    %28 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %29 = stablehlo.add %17, %28 : tensor<24xi32>
    %30 = stablehlo.select %27, %29, %17 : tensor<24xi1>, tensor<24xi32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0] : (tensor<24xi32>) -> tensor<24x1xi32>
    %32 = "stablehlo.gather"(%16, %31) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<24xi32>, tensor<24x1xi32>) -> tensor<24xi32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %33 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %34 = stablehlo.compare LT, %32, %33, SIGNED : (tensor<24xi32>, tensor<24xi32>) -> tensor<24xi1>
    %c_8 = stablehlo.constant dense<8> : tensor<i32>
    %35 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %36 = stablehlo.add %32, %35 : tensor<24xi32>
    %37 = stablehlo.select %34, %36, %32 : tensor<24xi1>, tensor<24xi32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0] : (tensor<24xi32>) -> tensor<24x1xi32>
    %39 = "stablehlo.gather"(%arg1, %38) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16, 32>}> : (tensor<8x16x32xf32>, tensor<24x1xi32>) -> tensor<24x16x32xf32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %40 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %41 = stablehlo.compare LT, %32, %40, SIGNED : (tensor<24xi32>, tensor<24xi32>) -> tensor<24xi1>
    %c_10 = stablehlo.constant dense<8> : tensor<i32>
    %42 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %43 = stablehlo.add %32, %42 : tensor<24xi32>
    %44 = stablehlo.select %41, %43, %32 : tensor<24xi1>, tensor<24xi32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [0] : (tensor<24xi32>) -> tensor<24x1xi32>
    %46 = "stablehlo.gather"(%arg2, %45) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32, 16>}> : (tensor<8x32x16xf32>, tensor<24x1xi32>) -> tensor<24x32x16xf32>
    %47 = stablehlo.dot_general %25, %39, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<24x16xf32>, tensor<24x16x32xf32>) -> tensor<24x32xf32>
    %48 = stablehlo.multiply %47, %47 : tensor<24x32xf32>
    %49 = stablehlo.multiply %48, %47 : tensor<24x32xf32>
    %cst_11 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<24x32xf32>
    %51 = stablehlo.multiply %50, %49 : tensor<24x32xf32>
    %52 = stablehlo.add %47, %51 : tensor<24x32xf32>
    %cst_12 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<24x32xf32>
    %54 = stablehlo.multiply %53, %52 : tensor<24x32xf32>
    %55 = stablehlo.tanh %54 : tensor<24x32xf32>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<24x32xf32>
    %57 = stablehlo.add %56, %55 : tensor<24x32xf32>
    %cst_14 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<24x32xf32>
    %59 = stablehlo.multiply %58, %57 : tensor<24x32xf32>
    %60 = stablehlo.multiply %47, %59 : tensor<24x32xf32>
    %61 = stablehlo.dot_general %60, %46, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<24x32xf32>, tensor<24x32x16xf32>) -> tensor<24x16xf32>
    %62 = stablehlo.reshape %15 : (tensor<12x2xf32>) -> tensor<24xf32>
    %c_15 = stablehlo.constant dense<0> : tensor<i32>
    %63 = stablehlo.broadcast_in_dim %c_15, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %64 = stablehlo.compare LT, %17, %63, SIGNED : (tensor<24xi32>, tensor<24xi32>) -> tensor<24xi1>
    %c_16 = stablehlo.constant dense<24> : tensor<i32>
    %65 = stablehlo.broadcast_in_dim %c_16, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %66 = stablehlo.add %17, %65 : tensor<24xi32>
    %67 = stablehlo.select %64, %66, %17 : tensor<24xi1>, tensor<24xi32>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0] : (tensor<24xi32>) -> tensor<24x1xi32>
    %69 = "stablehlo.gather"(%62, %68) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<24xf32>, tensor<24x1xi32>) -> tensor<24xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0] : (tensor<24xf32>) -> tensor<24x1xf32>
    %71 = stablehlo.broadcast_in_dim %70, dims = [0, 1] : (tensor<24x1xf32>) -> tensor<24x16xf32>
    %72 = stablehlo.multiply %61, %71 : tensor<24x16xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %73 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<12x16xf32>
    %c_18 = stablehlo.constant dense<0> : tensor<i32>
    %74 = stablehlo.broadcast_in_dim %c_18, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %75 = stablehlo.compare LT, %18, %74, SIGNED : (tensor<24xi32>, tensor<24xi32>) -> tensor<24xi1>
    %c_19 = stablehlo.constant dense<12> : tensor<i32>
    %76 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %77 = stablehlo.add %18, %76 : tensor<24xi32>
    %78 = stablehlo.select %75, %77, %18 : tensor<24xi1>, tensor<24xi32>
    %79 = stablehlo.broadcast_in_dim %78, dims = [0] : (tensor<24xi32>) -> tensor<24x1xi32>
    %80 = "stablehlo.scatter"(%73, %79, %72) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %81 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %81 : tensor<f32>
    }) : (tensor<12x16xf32>, tensor<24x1xi32>, tensor<24x16xf32>) -> tensor<12x16xf32>
    return %80 : tensor<12x16xf32>
  }
  func.func private @argsort(%arg0: tensor<24xi32>) -> tensor<24xi32> {
    %0 = stablehlo.iota dim = 0 : tensor<24xi32>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %2 = stablehlo.compare LT, %arg1, %arg2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    }) : (tensor<24xi32>, tensor<24xi32>) -> (tensor<24xi32>, tensor<24xi32>)
    return %1#1 : tensor<24xi32>
  }
  func.func private @floor_divide(%arg0: tensor<24xi32>, %arg1: tensor<i32>) -> tensor<24xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %2 = stablehlo.divide %arg0, %1 : tensor<24xi32>
    %3 = stablehlo.sign %arg0 : tensor<24xi32>
    %4 = stablehlo.sign %0 : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %6 = stablehlo.compare NE, %3, %5, SIGNED : (tensor<24xi32>, tensor<24xi32>) -> tensor<24xi1>
    %7 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %8 = stablehlo.remainder %arg0, %7 : tensor<24xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %10 = stablehlo.compare NE, %8, %9, SIGNED : (tensor<24xi32>, tensor<24xi32>) -> tensor<24xi1>
    %11 = stablehlo.and %6, %10 : tensor<24xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %12 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %13 = stablehlo.subtract %2, %12 : tensor<24xi32>
    %14 = call @_where(%11, %13, %2) : (tensor<24xi1>, tensor<24xi32>, tensor<24xi32>) -> tensor<24xi32>
    return %14 : tensor<24xi32>
  }
  func.func private @_where(%arg0: tensor<24xi1>, %arg1: tensor<24xi32>, %arg2: tensor<24xi32>) -> tensor<24xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<24xi1>, tensor<24xi32>
    return %0 : tensor<24xi32>
  }
}
