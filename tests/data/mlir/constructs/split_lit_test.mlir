// RUN: mlir-hlo-opt %s | FileCheck %s
func.func @lit(%arg0: tensor<1x8x8x207xf32>, %arg1: tensor<3x3x207x16xf32>, %a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x207xf32>, tensor<3x3x207x16xf32>) -> tensor<1x6x6x16xf32>
  %1 = "mhlo.convolution"(%arg0, %arg1) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, conv = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>} : (tensor<1x8x8x207xf32>, tensor<3x3x207x16xf32>) -> tensor<1x6x6x16xf32>
  %2 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %3 = "stablehlo.custom_call"(%2) {
    call_target_name = "foo",
    has_side_effect = false
  } : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %4 = stablehlo.custom_call @bar(%3) {backend_config = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %5 = "stablehlo.add"(%4, %3)
      : (tensor<2x4xf32>, tensor<2x4xf32>)
      -> tensor<2x4xf32>
  func.return %5 : tensor<2x4xf32>
}

// -----

func.func @consts() -> (tensor<2xf32>, tensor<0x4xf32>, tensor<4xf32>, tensor<2xi32>) {
  %0 = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  %1 = stablehlo.constant dense<> : tensor<0x4xf32>
  %2 = mhlo.constant dense_resource<blob1> : tensor<4xf32>
  %3 = "mhlo.constant"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %4 = "mhlo.copy"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %5 = mhlo.copy %4 : tensor<2xf32>
  return %5, %1, %2, %3 : tensor<2xf32>, tensor<0x4xf32>, tensor<4xf32>, tensor<2xi32>
}

// -----

func.func @consts(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
