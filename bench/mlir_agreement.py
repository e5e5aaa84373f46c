"""Agreement of passlint's MLIR front end with MLIR's own parser (issue 14, point 3).

    python bench/mlir_agreement.py [--mutants N] [--seed S] [--show K] [--upstream DIR]

Seeds are the valid modules of the repository (``tests/data/mlir/**/*.mlir`` that jaxlib's
parser accepts, and a small generated transformer in pretty and generic form). Each mutant
applies one syntax-level edit to a seed: delete or duplicate a token, rename a value (a use
or a definition), split a line between two tokens, or join a line with the next. jaxlib's
parser (``pip install -e '.[bench]'``) classifies every seed and mutant; passlint agrees on a
mutant when it reports an E code exactly when jaxlib rejects it.

jaxlib's verdicts are ``ok``, ``parse`` (its parser rejects), ``verify`` (an op verifier
rejects: types, attributes, operand counts of a registered op, beyond what a parser reads),
``unknown`` (an op in custom form that jaxlib has no dialect for; for a mutant of a seed
that uses known dialects only, the edit made it so: a rejection) and ``crash``. The goal
(>= 95%) is measured on the mutants the parser decides (``ok`` and ``parse``); verifier-only
rejections are counted apart and also printed in an overall figure. A false E is an E
finding on a text jaxlib accepts (``ok``): the goal is 0. (A text only a verifier rejects is
invalid too: an E there is shown apart, with jaxlib's message, e.g. a use that MLIR's parser
resolves to a value of another function and its verifier then rejects.)

With ``--upstream DIR`` (an openxla/stablehlo checkout's ``stablehlo/tests``) every
`// -----` chunk of its .mlir files is classified too and the false E there are listed.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generate import mlir_module
from jaxlib_oracle import Oracle, Verdict

from passlint import pipeline
from passlint.analysis.mlir.lexer import tokenize
from passlint.analysis.mlir.parser import split_chunks
from passlint.memo import Memo

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "tests" / "data" / "mlir"
KINDS = ("delete", "duplicate", "rename-use", "rename-definition", "split", "join")
ACCEPTED = ("ok",)  # a false E is an E finding on a text jaxlib accepts


@dataclass(frozen=True)
class Mutant:
    seed: str
    kind: str
    text: str
    where: int  # offset of the edit


def e_findings(text: str, memo: Memo) -> list[str]:
    """passlint's E findings on a text, as `line:col CODE message` (``memo``: the run's)."""
    out = []
    for finding in pipeline.analyze("mutant.mlir", text, memo=memo):
        if finding.code.startswith("E"):
            start = finding.range.start
            out.append(f"{start.line + 1}:{start.column + 1} {finding.code} {finding.message}")
    return out


def seed_texts() -> dict[str, str]:
    seeds = {
        str(path.relative_to(SEEDS)): path.read_text(encoding="utf-8")
        for path in sorted(SEEDS.glob("**/*.mlir"))
        if "invalid" not in path.parts
    }
    seeds["generated/pretty.mlir"] = mlir_module(1)
    seeds["generated/generic.mlir"] = mlir_module(1, generic=True)
    return seeds


def mutate(rng: random.Random, name: str, text: str) -> Mutant:
    """One syntax-level edit of ``text``."""
    toks = [tok for tok in tokenize(text) if tok.kind != "NL"]
    kind = rng.choice(KINDS)
    if kind in ("rename-use", "rename-definition"):
        values = [tok for tok in toks if tok.kind == "VALUE_ID"]
        definitions = [
            tok
            for i, tok in enumerate(toks)
            if tok.kind == "VALUE_ID"
            and i + 1 < len(toks)
            and (toks[i + 1].kind in ("EQUAL", "COLON") or text[toks[i + 1].start] == ",")
        ]
        pool = definitions if kind == "rename-definition" else values
        tok = rng.choice(pool or values)
        return Mutant(name, kind, text[: tok.start] + "%renamed" + text[tok.end :], tok.start)
    if kind == "join":
        breaks = [i for i, char in enumerate(text) if char == "\n"][:-1]
        at = rng.choice(breaks)
        return Mutant(name, kind, text[:at] + " " + text[at + 1 :], at)
    index = rng.randrange(len(toks) - 1)
    tok = toks[index]
    if kind == "delete":
        return Mutant(name, kind, text[: tok.start] + text[tok.end :], tok.start)
    if kind == "duplicate":
        piece = text[tok.start : tok.end]
        return Mutant(name, kind, text[: tok.end] + " " + piece + text[tok.end :], tok.end)
    at = toks[index + 1].start  # split: a line break between two tokens
    return Mutant(name, kind, text[:at] + "\n" + text[at:], at)


def agreement(mutants: int, seed: int, show: int) -> bool:
    oracle = Oracle()
    memo = Memo()  # this run's, as `passlint check` makes one
    try:
        seeds = {}
        for name, text in seed_texts().items():
            verdict = oracle.verdict(text)
            if verdict.kind == "ok":
                seeds[name] = text
        rng = random.Random(seed)
        names = sorted(seeds)
        table: Counter[tuple[str, str, bool]] = Counter()
        disagreements: list[tuple[Mutant, Verdict, list[str]]] = []
        seed_false = [name for name in names if e_findings(seeds[name], memo)]
        for _ in range(mutants):
            name = rng.choice(names)
            mutant = mutate(rng, name, seeds[name])
            verdict = oracle.verdict(mutant.text)
            if verdict.kind == "unknown":  # the seeds use known dialects only: the edit made
                verdict = Verdict("parse", verdict.message, verdict.where)  # an op unknown
            found = e_findings(mutant.text, memo)
            table[(mutant.kind, verdict.kind, bool(found))] += 1
            decided = verdict.kind in ("ok", "parse")
            if (decided and bool(found) != (verdict.kind == "parse")) or (
                verdict.kind == "verify" and found
            ):
                disagreements.append((mutant, verdict, found))
    finally:
        oracle.close()
    decided = sum(n for (_, v, _), n in table.items() if v in ("ok", "parse"))
    agree = sum(
        n for (_, v, e), n in table.items() if (v == "ok" and not e) or (v == "parse" and e)
    )
    overall_agree = sum(n for (_, v, e), n in table.items() if (v == "ok") != e)
    false_e = sum(n for (_, v, e), n in table.items() if v in ACCEPTED and e)
    verify_only = sum(n for (_, v, _), n in table.items() if v == "verify")
    verify_e = sum(n for (_, v, e), n in table.items() if v == "verify" and e)
    print(f"seeds: {len(names)} valid modules ({', '.join(names)})")
    print(f"seeds with an E finding (false E on valid seeds): {len(seed_false)} {seed_false}")
    print(f"mutants: {mutants} (seed {seed}); jaxlib verdicts: {_verdicts(table)}")
    print(f"{'kind':<18} {'decided':>8} {'agree':>6} {'missed':>7} {'false E':>8} {'verify':>7}")
    for kind in KINDS:
        rows = {k: n for k, n in table.items() if k[0] == kind}
        d = sum(n for (_, v, _), n in rows.items() if v in ("ok", "parse"))
        a = sum(n for (_, v, e), n in rows.items() if (v == "ok" and not e) or (v == "parse" and e))
        m = sum(n for (_, v, e), n in rows.items() if v == "parse" and not e)
        f = sum(n for (_, v, e), n in rows.items() if v == "ok" and e)
        vo = sum(n for (_, v, _), n in rows.items() if v == "verify")
        print(f"{kind:<18} {d:>8} {a:>6} {m:>7} {f:>8} {vo:>7}")
    ratio = agree / decided if decided else 0.0
    print(f"\nagreement on parser-decided mutants: {agree}/{decided} = {ratio:.1%} (goal >= 95%)")
    print(
        f"agreement counting verifier rejections as rejections: {overall_agree}/{mutants} = "
        f"{overall_agree / mutants:.1%} ({verify_only} rejected by a verifier only)"
    )
    print(f"false E on texts jaxlib accepts: {false_e} (goal 0)")
    print(f"E on texts only a verifier rejects: {verify_e} of {verify_only}")
    for mutant, verdict, found in disagreements[:show]:
        line = mutant.text.count("\n", 0, mutant.where) + 1
        print(f"\n--- {mutant.seed} {mutant.kind} at line {line}: jaxlib {verdict.kind}")
        print(f"    jaxlib: {verdict.where} {verdict.message[:150]}")
        print(f"    passlint: {found[:2]}")
    return ratio >= 0.95 and false_e == 0 and not seed_false


def _verdicts(table: Counter[tuple[str, str, bool]]) -> str:
    counts: Counter[str] = Counter()
    for (_, verdict, _), n in table.items():
        counts[verdict] += n
    return ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items()))


def upstream(directory: Path, show: int) -> int:
    """Classify every chunk of the .mlir files under ``directory``; print the false E."""
    oracle = Oracle()
    memo = Memo()  # this run's, as `passlint check` makes one
    counts: Counter[tuple[str, bool]] = Counter()
    false_e: list[tuple[str, int, str, str]] = []
    try:
        for path in sorted(directory.glob("**/*.mlir")):
            text = path.read_text(encoding="utf-8")
            findings = pipeline.analyze(str(path), text, memo=memo)
            for start, end in split_chunks(text):
                first_line = text.count("\n", 0, start)
                last_line = text.count("\n", 0, end)
                padded = "\n" * first_line + text[start:end]  # MLIR's lines are the file's
                verdict = oracle.verdict(padded)
                errors = [
                    f
                    for f in findings
                    if f.code.startswith("E") and first_line <= f.range.start.line <= last_line
                ]
                counts[(verdict.kind, bool(errors))] += 1
                if errors and verdict.kind in ACCEPTED:
                    first = errors[0]
                    where = f"{path}:{first.range.start.line + 1}"
                    false_e.append((where, len(errors), first.code, first.message))
    finally:
        oracle.close()
    print(f"\nupstream chunks of {directory}:")
    for (kind, has_e), n in sorted(counts.items()):
        print(f"  jaxlib {kind:<8} passlint {'E' if has_e else 'no E':<5} {n}")
    print(f"false E chunks: {len(false_e)} ({sum(n for _, n, _, _ in false_e)} findings)")
    for where, n, code, message in false_e[:show]:
        print(f"  {where} {code} x{n}: {message[:120]}")
    return len(false_e)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mutants", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--show", type=int, default=10, help="disagreements to print")
    parser.add_argument("--upstream", type=Path, help="also classify this directory's chunks")
    args = parser.parse_args(argv)
    met = agreement(args.mutants, args.seed, args.show)
    if args.upstream is not None:
        met = upstream(args.upstream, args.show) == 0 and met
    print("\ngoal met" if met else "\ngoal NOT met")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
