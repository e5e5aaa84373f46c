"""What the server shows of a document's own words (``server.quoting``): hover, inlay hints,
document symbols, completion details and source-location hovers quote names, symbols,
extents and file names as a bounded excerpt, with hidden and controlling characters escaped
(a backtick inside a Markdown code span too): a 100,000-character name or an ESC in a
``pl.dynamic`` string cannot flood or break the editor's layout. Exact texts."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from passlint.analysis.source import SourceText
from passlint.config import Settings
from passlint.filesystem import Boundary
from passlint.server import completion, hover, inlay, locations, rename, symbols
from passlint.server.convert import ClientFeatures
from passlint.server.jobs import Job, run_job
from passlint.server.models import PlModel, build_pl_model
from passlint.server.views import MlirView, Shift

KERNEL = "k" * 100_000
SHOWN = "k" * 60 + "..."  # what is shown of it
HEX = "0x" + "f" * 5000  # an extent of more than 4,300 decimal digits

PL = f"""\
import pypto.language as pl

V = pl.dynamic("v\\x1b[2J\\n`")


@pl.function(type=pl.FunctionType.InCore)
def {KERNEL}(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, V])]):
    return x


@pl.function(type=pl.FunctionType.Orchestration)
def main(src: pl.Tensor[[16, 128], pl.FP32]):
    return {KERNEL}(pl.slice(src, [16, 128], [0, 0], valid_shape=[16, {HEX}]))
"""

NAME = "n" * 5000
MLIR = (
    "func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes "
    f'{{output_names = ["a\x1b[31m\u202e`x`", "{NAME}"]}} {{\n'
    "  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>\n"
    "  %1 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>\n"
    "  return %0, %1 : tensor<4xf32>, tensor<4xf32>\n"
    "}\n"
)


def pl_model(text: str = PL, path: str = "/ws/f\x1b.py") -> PlModel:
    model = build_pl_model(path, text, None)
    assert model is not None and model.module is not None
    return model


def mlir_view(text: str = MLIR, path: str = "/ws/q.mlir") -> MlirView:
    uri = f"file://{path}"
    job = Job(
        uri, path, 1, text, Settings(), (), {path: text}, {path: uri}, {path: 1}, ClientFeatures()
    )
    index = run_job(job).index
    assert index is not None
    return MlirView(index, Shift(), SourceText(text))


def pl_hover(model: PlModel, offset: int) -> str:
    found = hover.pl_hover(model, offset)
    assert found is not None
    return found[0]


def test_pl_hover_quotes_names_symbols_extents_and_file_names() -> None:
    model = pl_model()
    symbol = pl_hover(model, PL.index("16, V]") + 4)
    assert symbol == (
        "**MaterializeValidShapeSymbols**\n\n"
        f'valid_shape symbol `V` (`pl.dynamic("v\\x1b[2J\\n\\x60")`) of kernel `{SHOWN}`: '
        "**unbound**; slots: `x` dim 1. The pass adds the leading parameter "
        "`V: pl.Scalar[pl.INDEX]` and passes the extent at every call.\n"
        f"- f\\x1b.py:13 `{SHOWN}`: passes `0x{'f' * 58}...`"
    )
    kernel = pl_hover(model, PL.index(KERNEL) + 5)
    assert kernel == (
        "**MaterializeValidShapeSymbols**\n\n"
        f"InCore kernel `{SHOWN}`: valid_shape symbols `V` (unbound).\n"
        "The pass adds leading parameters `V`.\n"
        "Call sites:\n"
        f"- f\\x1b.py:13 `{SHOWN}`: passes `0x{'f' * 58}...`"
    )
    param = pl_hover(model, PL.index("(x:") + 1)
    assert param == (
        "**MaterializeValidShapeSymbols**\n\n"
        f"parameter `x` (tensor, in) of kernel `{SHOWN}`: slot of `V` (dim 1)."
    )
    assert hover.plaintext(symbol).startswith(
        'MaterializeValidShapeSymbols\n\nvalid_shape symbol V (pl.dynamic("v\\x1b[2J\\n\\x60"))'
    )


def test_pl_symbols_quote_names_and_details() -> None:
    model = pl_model()
    found = symbols.to_lsp(model.source, symbols.pl_symbols(model))
    assert [(s.name, s.detail) for s in found] == [
        ("V", 'pl.dynamic("v\\x1b[2J\\n`")'),
        (SHOWN, "InCore kernel"),
        ("main", "pl.function (Orchestration)"),
    ]


def test_mlir_hover_hints_and_symbols_quote_output_names() -> None:
    view = mlir_view()
    found = hover.mlir_hover(view, MLIR.index("%0 =") + 1)
    assert found is not None
    outputs = found[0].split("\n\n---\n\n")[-1]  # (after what the value is)
    assert outputs.startswith(
        "**TensorizerLegalization** (StableHLO variant)\n\n"
        "- output 0 `a\\x1b[31m\\u202e\\x60x\\x60` (compute): "
    )
    found = hover.mlir_hover(view, MLIR.index("%1 =") + 1)
    assert found is not None
    outputs = found[0].split("\n\n---\n\n")[-1]
    assert outputs.split("\n")[2].startswith(f"- output 1 `{'n' * 60}...` (compute): ")
    assert "\x1b" not in found[0] and "\u202e" not in found[0]
    hints = [hint for _, hint in inlay.mlir_hints(view, 0, len(MLIR))]
    assert (hints[0].label, hints[0].tooltip) == (
        "→ 'a\\x1b[31m\\u202e`x`'",
        "output 0 'a\\x1b[31m\\u202e`x`' (compute)",
    )
    assert hints[1].tooltip == f"output 1 '{'n' * 60}...' (compute)"
    assert len(hints[1].label) <= 2 + 123
    (main,) = symbols.to_lsp(view.source, symbols.mlir_symbols(view))
    assert (main.name, main.detail) == ("@main", f"2 outputs: a\\x1b[31m\\u202e`x`, {'n' * 60}...")


def test_long_mlir_symbol_names_are_cut_in_symbols_and_not_sent_as_placeholders() -> None:
    name = "f" * 100_000
    text = f"func.func private @{name}(%a: tensor<4xf32>) -> tensor<4xf32> {{\n  return %a : tensor<4xf32>\n}}\n"
    view = mlir_view(text)
    (function,) = symbols.to_lsp(view.source, symbols.mlir_symbols(view))
    assert function.name == "@" + "f" * 59 + "..."
    found = rename.target(view, text.index("@") + 3)
    assert found is not None
    _, span, written = found
    assert rename.placeholder(view.source, span, written) == types.Range(
        start=types.Position(line=0, character=18),
        end=types.Position(line=0, character=100_019),
    )
    short = rename.placeholder(view.source, (18, 20), "@f")
    assert isinstance(short, types.PrepareRenamePlaceholder) and short.placeholder == "@f"


def test_completion_details_are_quoted_and_long_names_not_offered() -> None:
    source = SourceText("x")
    found = completion.to_lsp(
        source,
        1,
        "x",
        [
            completion.Item("x1", "dynamic", 'pl.dynamic("\x1b[2J")'),
            completion.Item("x" * 513, "dynamic", "long"),
        ],
        False,
    )
    assert [(item.label, item.detail) for item in found.items] == [("x1", 'pl.dynamic("\\x1b[2J")')]


def test_source_location_hover_quotes_the_file_and_its_line(tmp_path: Path) -> None:
    name = "m\x1b[2J" + "o" * 200 + ".py"
    (tmp_path / name).write_text("x = 1  # " + "é" * 10_000 + "\n")
    frames = [locations.Frame(name, 1, 1)]
    text = locations.hover_text(frames, Boundary([tmp_path]), str(tmp_path), 1 << 20)
    assert text == (
        f"**Source location**\n\n- `m\\x1b[2J{'o' * 195}...:1:1`\n  `x = 1  # {'é' * 191}...`"
    )


def test_a_location_with_a_line_number_beyond_any_file_is_no_frame() -> None:
    def alias(name: str) -> str | None:
        return None

    huge = "9" * 5000
    assert locations.frames(f'loc("a.py":{huge}:1)', 0, alias) == []
    assert locations.frames('loc("a.py":2147483648:1)', 0, alias) == []
    assert locations.frames('loc("a.py":2147483647:3)', 0, alias) == [
        locations.Frame("a.py", 2147483647, 3)
    ]
