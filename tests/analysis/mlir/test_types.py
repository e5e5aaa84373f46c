"""Shaped types read from their text."""

from __future__ import annotations

import pytest

from passlint.analysis.mlir.types import ShapedType, element_bits, parse_shaped_type


@pytest.mark.parametrize(
    ("text", "kind", "shape", "element", "num_elements"),
    [
        ("tensor<4xf32>", "tensor", (4,), "f32", 4),
        ("tensor<8x4xf32>", "tensor", (8, 4), "f32", 32),
        ("tensor<f32>", "tensor", (), "f32", 1),
        ("tensor<i1>", "tensor", (), "i1", 1),
        ("tensor<0x4xf32>", "tensor", (0, 4), "f32", 0),
        ("tensor<2x0xf32>", "tensor", (2, 0), "f32", 0),
        ("tensor<?x0xf32>", "tensor", (None, 0), "f32", 0),
        ("tensor<2x?x8xf32>", "tensor", (2, None, 8), "f32", None),
        ("tensor<?xi32>", "tensor", (None,), "i32", None),
        ("tensor<4xcomplex<f32>>", "tensor", (4,), "complex<f32>", 4),
        ("tensor<4x8xbf16, #enc>", "tensor", (4, 8), "bf16", 32),
        ("tensor<16xf8E4M3FN>", "tensor", (16,), "f8E4M3FN", 16),
        ("vector<[4]x8xf32>", "vector", (4, 8), "f32", 32),
        ("memref<2x3xf32, affine_map<(d0, d1) -> (d0, d1)>>", "memref", (2, 3), "f32", 6),
        ("tensor<1x8x8x207xf32>", "tensor", (1, 8, 8, 207), "f32", 13248),
    ],
)
def test_ranked(
    text: str,
    kind: str,
    shape: tuple[int | None, ...],
    element: str,
    num_elements: int | None,
) -> None:
    parsed = parse_shaped_type(text)
    assert parsed is not None
    assert parsed == ShapedType(kind, shape, element)
    assert parsed.rank == len(shape)
    assert parsed.num_elements == num_elements
    assert parsed.is_static == (None not in shape)


@pytest.mark.parametrize(
    ("text", "kind", "element"),
    [("tensor<*xf32>", "tensor", "f32"), ("memref<*xi8>", "memref", "i8")],
)
def test_unranked(text: str, kind: str, element: str) -> None:
    parsed = parse_shaped_type(text)
    assert parsed is not None
    assert parsed == ShapedType(kind, None, element)
    assert parsed.rank is None
    assert parsed.num_elements is None
    assert not parsed.is_static


@pytest.mark.parametrize("text", ["f32", "!t", "tuple<tensor<f32>>", "i32", "tensor", ""])
def test_not_shaped(text: str) -> None:
    assert parse_shaped_type(text) is None


def test_surrounding_spaces_are_ignored() -> None:
    assert parse_shaped_type("  tensor<2xf32> ") == ShapedType("tensor", (2,), "f32")


@pytest.mark.parametrize(
    ("element", "bits"),
    [
        ("f32", 32),
        ("bf16", 16),
        ("i1", 8),
        ("si8", 8),
        ("ui16", 16),
        ("index", 64),
        ("complex<f32>", 64),
        ("f8E4M3FN", 8),
        ("!quant", None),
    ],
)
def test_element_bits(element: str, bits: int | None) -> None:
    assert element_bits(element) == bits
