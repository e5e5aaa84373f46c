"""Top-level splitting of attribute and type text."""

from __future__ import annotations

from passlint.analysis.mlir.attribute_text import split_top_level


def test_splits_outside_brackets_strings_and_arrows() -> None:
    assert split_top_level('"a,b", [1, 2], <x, y>, "c\\",d"', ",") == [
        '"a,b"',
        " [1, 2]",
        " <x, y>",
        ' "c\\",d"',
    ]
    assert split_top_level("affine_map<(d0) -> (d0)>, #enc", ",") == [
        "affine_map<(d0) -> (d0)>",
        " #enc",
    ]
    assert split_top_level('dense<"0x:00"> : tensor<4xf32>', ":") == [
        'dense<"0x:00"> ',
        " tensor<4xf32>",
    ]
    assert split_top_level("", ",") == [""]
