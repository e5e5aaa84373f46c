"""A large module the analysis process reads from its file and the edits made to it
(``server.disk_copy``, ``server.session.disk_copies``): the pieces spell the document's
text after any edits, a document stops being a copy when its file changes, when an edit puts
in a character that is not ASCII, or when its text was never the file's, and an analysis of
the copy (no text sent) gives the diagnostics of the analysis of the text."""

from __future__ import annotations

import os
import random
from dataclasses import replace
from pathlib import Path

import pytest

from passlint import pipeline
from passlint.analysis.text_change import replace_span
from passlint.config import Settings
from passlint.filesystem import FileBytes
from passlint.memo import Memo
from passlint.server.convert import ClientFeatures
from passlint.server.disk_copy import Piece, PiecedBytes, edited
from passlint.server.jobs import Job, run_job
from passlint.server.session.disk_copies import DiskCopies

MODULE = (
    "func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {\n"
    + "".join(
        f"  %{i} = stablehlo.add %{i - 1 if i else 'arg0'}, %arg1 : tensor<4xf32>\n"
        for i in range(400)
    )
    + "  return %arg0 : tensor<4xf32>\n}\n"
)


def spelled(file: bytes, pieces: tuple[Piece, ...]) -> bytes:
    return b"".join(file[p[0] : p[1]] if isinstance(p, tuple) else p for p in pieces)


@pytest.mark.parametrize("seed", range(40))
def test_edits_of_pieces_spell_the_edited_text(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    file = bytes(rng.choice(b"ab\n") for _ in range(rng.randrange(0, 60)))
    path = tmp_path / "f.mlir"
    path.write_bytes(file)
    pieces: tuple[Piece, ...] = ((0, len(file)),) if file else ()
    text = file
    for _ in range(12):
        start = rng.randrange(len(text) + 1)
        end = rng.randrange(start, len(text) + 1)
        new = bytes(rng.choice(b"xy\n") for _ in range(rng.randrange(0, 5)))
        pieces, text = edited(pieces, start, end, new), text[:start] + new + text[end:]
        assert spelled(file, pieces) == text
    handle = os.open(path, os.O_RDONLY)
    with PiecedBytes(FileBytes(handle, str(path)), pieces) as source:
        assert len(source) == len(text)
        for _ in range(20):
            start = rng.randrange(len(text) + 2)
            stop = rng.randrange(start, len(text) + 3)
            assert source[start:stop] == text[start:stop]
            assert source.find(b"\n", start, stop) == text.find(b"\n", start, stop)


@pytest.fixture
def small_stream_min(monkeypatch: pytest.MonkeyPatch) -> None:
    """Modules of a few kilobytes are read by the streaming reader (and copied from disk)."""
    monkeypatch.setattr(pipeline, "STREAM_MIN", 1024)


def opened(tmp_path: Path, text: str = MODULE) -> tuple[DiskCopies, str, Path]:
    path = tmp_path / "m.mlir"
    path.write_text(text)
    copies = DiskCopies()
    uri = path.as_uri()
    copies.opened(uri, str(path), text)
    return copies, uri, path


def change(text: str, start: int, end: int, new: str):  # type: ignore[no-untyped-def]
    return replace_span(text, start, end, new, text.count("\n", 0, start))


@pytest.mark.usefixtures("small_stream_min")
def test_a_large_module_opened_from_its_file_is_a_copy_of_it_with_its_edits(
    tmp_path: Path,
) -> None:
    copies, uri, _ = opened(tmp_path)
    copy = copies.copy_of(uri, MODULE)
    assert copy is not None and copy.pieces == ((0, len(MODULE)),)
    text = MODULE
    for at in (30, 3000, len(MODULE) - 5):
        text, described = change(text, at, at + 3, "%9 = \nzz")
        copies.changed(uri, [described])
    copy = copies.copy_of(uri, text)
    assert copy is not None
    with copy.read() as source:
        assert source[0 : len(source)] == text.encode()
    copies.changed(uri, [change(text, 10, 10, "é")[1]])  # not ASCII: a copy no more
    assert copies.copy_of(uri, text) is None


@pytest.mark.usefixtures("small_stream_min")
def test_what_is_no_copy(tmp_path: Path) -> None:
    copies, uri, path = opened(tmp_path)
    path.write_text(MODULE.replace("add", "sub"))  # changed on disk (same size)
    os.utime(path, ns=(1, 1))
    assert copies.copy_of(uri, MODULE) is None
    copies, uri, path = opened(tmp_path)
    assert copies.copy_of(uri, MODULE.replace("add", "sub")) is None  # not the file's text
    copies, uri, path = opened(tmp_path, "func.func @main() {\n  return\n}\n")  # small
    assert copies.copy_of(uri, path.read_text()) is None
    copies, uri, path = opened(tmp_path)
    copies.changed(uri, None)  # replaced whole
    assert copies.copy_of(uri, MODULE) is None


@pytest.mark.usefixtures("small_stream_min")
def test_an_analysis_of_the_copy_gives_the_diagnostics_of_the_text(tmp_path: Path) -> None:
    copies, uri, path = opened(tmp_path)
    at = MODULE.index("\n") + 1
    text, described = change(MODULE, at, at, "  %x = stablehlo.abs %arg0 : tensor<4xf32>\n")
    copies.changed(uri, [described])
    copy = copies.copy_of(uri, text)
    assert copy is not None
    job = Job(uri, str(path), 2, text, Settings(), (str(tmp_path),), {}, {}, {}, ClientFeatures())
    with_text = run_job(job, Memo())
    read: list[tuple[int, int]] = []
    from_disk = run_job(
        replace(job, text="", disk_copy=copy), Memo(), progress=lambda d, t: read.append((d, t))
    )
    assert [d["code"] for d in with_text.diagnostics] == ["TL001"]
    assert from_disk.diagnostics == with_text.diagnostics
    assert read and read[-1] == (len(text), len(text))  # the reading was told
