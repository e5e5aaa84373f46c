"""Readers of the known ops: constants (value, type, splat-ness), fusion kinds, composites."""

from __future__ import annotations

import pytest

from passlint.analysis.mlir.known_ops import (
    composite_decomposition,
    constant_type,
    constant_value,
    fusion_kind,
    is_splat_constant,
)
from passlint.analysis.mlir.parser import parse_file


def op(text: str):  # type: ignore[no-untyped-def]
    return parse_file(text).chunks[0].operations[0]


@pytest.mark.parametrize(
    ("text", "value", "splat"),
    [
        ("%c = stablehlo.constant dense<0.0> : tensor<4x4xf32>", "dense<0.0>", True),
        ("%c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>", "dense<[1, 2]>", False),
        ("%c = stablehlo.constant dense<3.0> : tensor<f32>", "dense<3.0>", True),  # rank 0
        ("%c = stablehlo.constant dense<[3.0]> : tensor<1xf32>", "dense<[3.0]>", True),
        (
            "%c = stablehlo.constant dense<[[1, 1], [1, 1]]> : tensor<2x2xi32>",
            "dense<[[1, 1], [1, 1]]>",
            True,
        ),
        (
            '%c = stablehlo.constant dense<"0x0000803F"> : tensor<8xf32>',
            'dense<"0x0000803F">',
            True,
        ),
        (
            '%c = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>',
            'dense<"0x0000803F00000040">',
            False,
        ),
        ("%c = stablehlo.constant dense<true> : tensor<4xi1>", "dense<true>", True),
        (
            "%c = stablehlo.constant dense_resource<blob> : tensor<4xf32>",
            "dense_resource<blob>",
            False,
        ),
        ("%c = stablehlo.constant dense<> : tensor<0x4xf32>", "dense<>", False),
        (
            '%c = "stablehlo.constant"() <{value = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf32>',
            "dense<1.0>",
            True,
        ),
        (
            '%c = "mhlo.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>',
            "dense<[1.0, 2.0]>",
            False,
        ),
    ],
)
def test_constants(text: str, value: str, splat: bool) -> None:
    """Splat as MLIR's isSplat() says (checked against jaxlib): every element equal."""
    constant = op(text + "\n")
    assert constant_value(constant) == value
    assert is_splat_constant(constant) is splat
    assert constant_type(constant) is not None


def test_fusion_kinds_and_composites() -> None:
    loop = op(
        '%0 = "mhlo.fusion"(%a) <{fusion_kind = #mhlo<fusion_kind kLoop>}> ({\n  mhlo.return %a : tensor<4xf32>\n}) : (tensor<4xf32>) -> tensor<4xf32>\n'
    )
    sched = op(
        '%0 = "mhlo.fusion"(%a) ({\n  mhlo.return %a : tensor<4xf32>\n}) {FusionKind = "ScheduleFusion"} : (tensor<4xf32>) -> tensor<4xf32>\n'
    )
    plain = op(
        '%0 = "mhlo.fusion"(%a) ({\n  mhlo.return %a : tensor<4xf32>\n}) : (tensor<4xf32>) -> tensor<4xf32>\n'
    )
    assert (fusion_kind(loop), fusion_kind(sched), fusion_kind(plain)) == (
        "kLoop",
        "ScheduleFusion",
        None,
    )
    composite = op(
        '%0 = stablehlo.composite "my.op" %a {decomposition = @my.op, version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>\n'
    )
    quoted = op(
        '%0 = stablehlo.composite "x" %a {decomposition = @"my op"} : (tensor<4xf32>) -> tensor<4xf32>\n'
    )
    assert composite_decomposition(composite) == "my.op"
    assert composite_decomposition(quoted) == "my op"
    assert composite_decomposition(plain) is None
