"""Where `legalize` writes `neuron.symName` in an op of a custom form passlint does not know:
the op printed again in generic form when its text holds everything that form needs, else
before its `:` (where most custom forms take attributes)."""

from __future__ import annotations

from passlint.passes.tensorizer_legalization.apply import legalize_text

UNKNOWN_FORMS = """\
func.func @main(%a: tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0:2 = foo.split %a : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  %1 = foo.op %a, %a {k = 1 : i32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("x")
  %2 = foo.mode %a mode = 3 : tensor<4xf32>
  return %0#0, %0#1, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>
}
"""


def test_unknown_custom_forms_are_printed_generically_when_their_text_allows() -> None:
    assert legalize_text(UNKNOWN_FORMS) == (
        "func.func @main(%a: tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<4xf32>, "
        "tensor<4xf32>) {\n"
        '  %0:2 = "foo.split"(%a) {neuron.symName = [@output0, @output1]} : (tensor<4xf32>) '
        "-> (tensor<2xf32>, tensor<2xf32>)\n"
        '  %1 = "foo.op"(%a, %a) {k = 1 : i32, neuron.symName = [@output2]} : (tensor<4xf32>, '
        'tensor<4xf32>) -> tensor<4xf32> loc("x")\n'
        # a word the generic form has no place for: the name goes before the `:`
        "  %2 = foo.mode %a mode = 3 {neuron.symName = [@output3]} : tensor<4xf32>\n"
        "  return %0#0, %0#1, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<4xf32>, "
        "tensor<4xf32>\n"
        "}\n"
    )


def test_an_existing_sym_name_is_replaced_in_place_in_any_form() -> None:
    text = (
        "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        '  %0 = foo.mode {neuron.symName = [@""]} %a mode = 3 : tensor<4xf32>\n'
        "  return %0 : tensor<4xf32>\n}\n"
    )
    assert legalize_text(text) == text.replace('[@""]', "[@output0]")
