"""The source line under a finding (``--output-format full``, a terminal): a short line whole,
a long one as the characters around the range, the carets under the range either way; lines
counted as the analysis counts them (a lone CR ends one)."""

from __future__ import annotations

from pathlib import Path

from cli_testing import passlint

from passlint.analysis.findings import Finding, Position, Range, Severity
from passlint.report.text import FRAME_WIDTH, render_finding, render_text


def finding(column: int, end: int) -> Finding:
    rng = Range(Position(0, column), Position(0, end))
    return Finding("TL001", Severity.ERROR, "m.mlir", rng, "Something is wrong; fix it.")


def frame(text: str, column: int, end: int) -> list[str]:
    """The two lines under the finding's own: the source and the carets."""
    return render_finding(finding(column, end), lines={0: text}, source=True).split("\n")[2:4]


def test_a_short_line_is_shown_whole() -> None:
    assert frame("  return %arg0 : tensor<4xf32>", 9, 14) == [
        "1 |   return %arg0 : tensor<4xf32>",
        "  |          ^^^^^",
    ]


def test_a_long_line_is_shown_around_the_range() -> None:
    text = "a" * 500_000 + "%arg0" + "b" * 500_000
    source, carets = frame(text, 500_000, 500_005)
    assert source == "1 | ..." + "a" * 40 + "%arg0" + "b" * (FRAME_WIDTH - 45) + "..."
    assert carets == "  | " + " " * 43 + "^^^^^"


def test_the_start_and_the_end_of_a_long_line_are_cut_only_where_text_is_left_out() -> None:
    text = "%arg0" + "b" * 1_000
    assert frame(text, 0, 5) == ["1 | " + text[:FRAME_WIDTH] + "...", "  | ^^^^^"]
    text = "a" * 1_000 + "%arg0"
    assert frame(text, 1_000, 1_005) == [
        "1 | ..." + "a" * 40 + "%arg0",
        "  | " + " " * 43 + "^^^^^",
    ]


def test_a_range_longer_than_the_frame_is_marked_to_the_frame_end() -> None:
    text = "x" * 10_000
    source, carets = frame(text, 100, 9_000)
    assert source == "1 | ..." + "x" * FRAME_WIDTH + "..."
    assert carets == "  | " + " " * 43 + "^" * (FRAME_WIDTH - 40)


def test_many_findings_on_one_long_line_print_in_proportion_to_their_number() -> None:
    """Each finding printed the whole 1 MB line: 100 findings, 100 MB."""
    text = "x" * 1_000_000
    findings = [finding(column, column + 1) for column in range(0, 1_000_000, 10_000)]
    output = render_text(findings, 1, lines={"m.mlir": {0: text}}, source=True)
    assert len(output) < 100 * (2 * FRAME_WIDTH + 100)


def test_a_line_after_a_lone_cr_is_the_one_shown(tmp_path: Path) -> None:
    (tmp_path / "m.mlir").write_bytes(
        b"// a comment\rfunc.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\r"
        b"  return %arg0 : tensor<4xf32>\r}\r"
    )
    result = passlint("check", "--output-format", "full", "m.mlir", cwd=tmp_path)
    location, _, source, carets = result.stdout.split("\n")[:4]
    assert location.startswith("m.mlir:3:10: TL001")
    assert (source, carets) == ("3 |   return %arg0 : tensor<4xf32>", "  |          ^^^^^")
