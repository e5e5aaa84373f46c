"""The CI fuzz target's inputs: its seeds (every MLIR module, pl source and HLO text under
tests/data and examples/), mutant number ``index`` of a run's seed number (the same on every machine),
and the same input doubled in a shape that stays valid (for the linearity check)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from fuzz_mutate import ALL_KINDS, MAX_LENGTH, SeededChoices, mutate_once

from passlint.analysis.language import language_of

REPOSITORY = Path(__file__).resolve().parents[2]
SEED_FOLDERS = (REPOSITORY / "tests" / "data", REPOSITORY / "examples")
PATHS = {"mlir": "/fuzz/model.mlir", "pl": "/fuzz/kernels.py", "hlo": "/fuzz/module.hlo"}
LANGUAGES = ("mlir", "pl", "hlo")  # mutant ``index`` is of ``LANGUAGES[index % 3]``
ROOT = "/fuzz"
MAX_SEED_SIZE = 100_000  # bytes


@dataclass(frozen=True)
class Seeds:
    mlir: tuple[str, ...]
    pl: tuple[str, ...]
    hlo: tuple[str, ...]

    def of(self, language: str) -> tuple[str, ...]:
        found: tuple[str, ...] = getattr(self, language)
        return found


def load_seeds(folders: tuple[Path, ...] = SEED_FOLDERS) -> Seeds:
    """Every ``.mlir`` file, every ``.py`` file passlint reads as pl and every HLO text
    (``.hlo``, ``.hlo.txt``, an XLA dump's ``.txt``), in path order."""
    found: dict[str, list[str]] = {language: [] for language in LANGUAGES}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix not in (".mlir", ".py", ".hlo", ".txt") or not path.is_file():
                continue
            if path.stat().st_size >= MAX_SEED_SIZE:
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            language = language_of(path.name, text)
            if language is not None:
                found[language].append(text)
    return Seeds(tuple(found["mlir"]), tuple(found["pl"]), tuple(found["hlo"]))


@dataclass(frozen=True)
class Mutant:
    index: int
    language: str  # one of LANGUAGES
    text: str

    @property
    def path(self) -> str:
        return PATHS[self.language]

    @property
    def doubling(self) -> str:
        """How the linearity check doubles it (``doubled``): ``runs`` when it holds a long
        run of one short unit (the shape of issue 25's quadratic cases), else MLIR as
        ``chunks`` or ``copies`` (every other mutant), pl and HLO as ``copies``."""
        if _RUN.search(self.text):
            return "runs"
        if self.language == "mlir" and (self.index // 3) % 2:
            return "chunks"
        return "copies"


def mutant(seeds: Seeds, seed: int, index: int) -> Mutant:
    """Mutant ``index`` of run ``seed``: of ``LANGUAGES[index % 3]`` (MLIR, pl, HLO in
    turn); one seed text changed one to four times."""
    language = LANGUAGES[index % 3]
    corpus = seeds.of(language)
    choose = SeededChoices(f"passlint-fuzz/{seed}/{index}")
    text = choose.pick(corpus)
    for _ in range(choose.integer(1, 4)):
        text = mutate_once(text, corpus, choose, ALL_KINDS)[:MAX_LENGTH]
    return Mutant(index, language, text)


# -- doubling ------------------------------------------------------------------------------

# A unit of one to three characters repeated at least 32 times.
_RUN = re.compile(r"(.{1,3}?)\1{31,}", re.S)
# Names a pl module defines at its top level or as functions and classes at any depth.
_DEFINED = re.compile(
    r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_]\w*)|^([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=(?!=)",
    re.M,
)
_WORD = re.compile(r"(?<!pl\.)(?<!pld\.)\b[A-Za-z_]\w*")


def doubled(item: Mutant, text: str, level: int) -> str:
    """``text`` (``item``'s, maybe doubled already ``level`` times) doubled in a shape that
    stays the same kind of input (``item.doubling``): ``runs`` makes every long run twice
    as long; ``chunks`` appends the MLIR text as a second ``// -----`` chunk; ``copies``
    appends it in the same chunk (MLIR), as is (HLO) or with the copy's names renamed (pl, suffix
    ``_d{level}``, so a text doubled again renames apart), so the copy neither redefines
    nor calls the original."""
    if item.doubling == "runs":
        return _RUN.sub(lambda run: run[0] * 2, text)
    separator = "" if text.endswith(("\n", "\r")) or not text else "\n"
    if item.language in ("mlir", "hlo"):
        marker = "// -----\n" if item.doubling == "chunks" else ""
        return f"{text}{separator}{marker}{text}"
    names = {name for match in _DEFINED.finditer(text) for name in match.groups() if name}
    names.discard("pl")
    suffix = f"_d{level}"
    copy = _WORD.sub(lambda word: word[0] + suffix if word[0] in names else word[0], text)
    return f"{text}{separator}{copy}"


def inflated(item: Mutant, levels: int) -> str:
    """``item``'s text doubled ``levels`` times."""
    text = item.text
    for level in range(levels):
        text = doubled(item, text, level)
    return text
