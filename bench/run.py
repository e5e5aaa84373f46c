"""passlint benchmarks P1-P9, measured side by side with a reference in one run.

    python bench/run.py [--runs N] [--big FILE] [--series 1,2,4,8] [--quick] [--rows ROWS]
                        [--upstream DIR] [--pypto PATH] [--pl-only]

P1  open a ~5 MB module in the server -> first diagnostics with the TL findings
P2  a one-line edit anywhere in it -> fresh diagnostics (median)
P3  `passlint check` on it: wall time, peak RSS, and the 1x-8x series (pretty and generic)
P4  a 5,000-line pl module: check (the analysis in a fresh process, as `passlint check`
    runs it; the whole command for information) and an edit in the server (median)
P4b, P5  pl at workspace scale (``pl_workspace.py``): `passlint check .` of a pl workspace
    beside a bare `ast.parse` of its files (P5), the P4 and softmax files checked with it as
    the working folder (P4b). `--pypto PATH` names a checkout of hw-native-sys/pypto to use
    as the workspace (else one is generated in its shape); `--pl-only` runs P4, P4b, P5.
P6  the transformer in MLIR's generic form in the server (cold open, edits) beside
    mlir-lsp-server-22 when it is installed
P7  right after each one-line edit of the ~5 MB module: hover, code action, document
    symbols, inlay hints, definition (median and p95 of each)
P8  `passlint check --jobs 1` of upstream StableHLO tests beside jaxlib's parse of their
    `// -----` chunks (`--upstream DIR`, else generated lit tests)
P10 `passlint check` of a 100 MB module (pretty and generic), its time and peak RSS beside
    jaxlib's parse of the same file in a process of its own (issue 29's goals: at most 2x
    jaxlib's time, peak RSS at most 2x the input + 100 MB); ``--p10-mb`` sets the size
P11 that module opened in the server: first TL diagnostics once the didOpen is sent (1 s),
    the full analysis with its progress, edits (100 ms), and the most the server and its
    analysis process hold at once (2x the input + 100 MB)
P12 VS Code (code-server) and a 60 MB module, which it does not hand to extensions: the time
    from opening it to TL001 in the Problems panel, as the real-editor test measured it
    (``--p12 FILE``; by default its last run's result)
H1  `passlint check` of HLO text as XLA prints it (jaxlib's conversion of a generated
    20 MB model; ``--h1-mb``) beside jaxlib's parse of the same program as MLIR text, and
    passlint's token parser alone on it (information: no issue sets a goal)
P9  peak RSS of each row (and the M rows: `passlint check` of an 8 MB `dense<"0x...">` and
    a 4 MB decimal `dense<[...]>` constant): at most 3x the input + 100 MB

`--rows P1,P3,P7,M` runs only those rows (P1 and P2 always run together; P4 runs the pl
rows P4, P4b and P5).

The reference is jaxlib's C++ MLIR parser when it is importable (the optional `bench`
extra), else one compiled-regex tokenisation pass over the same text; every figure is also
printed as a ratio to that reference measured in this run.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pl_workspace
from generate import constant_module, layers_for, lit_corpus, mlir_module, pl_module
from lsp_client import LspClient, uri

import passlint

BIG = Path(__file__).resolve().parent.parent.parent / "shared/corpus/big/jax_transformer_560L.mlir"
TL_CODES = {"TL001", "TL002", "TL003", "TL006", "TL007"}


def median_time(function: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def reference(text: str, runs: int) -> tuple[str, float]:
    """jaxlib's parser when available, else one regex tokenisation pass."""
    try:
        from jax._src.interpreters import mlir as jax_mlir  # type: ignore[import-not-found]
        from jaxlib.mlir import ir  # type: ignore[import-not-found]

        context = jax_mlir.make_ir_context()
        context.allow_unregistered_dialects = True

        def parse() -> object:
            return ir.Module.parse(text, context)

        return "jaxlib C++ parser", median_time(parse, runs)
    except Exception:
        token = re.compile(r'"(?:[^"\\\n]|\\.)*"|%[\w$.\-]+(?:#\d+)?|[\w.$]+|->|\S')
        return "regex tokenisation", median_time(lambda: token.findall(text), runs)


# Runs a command and reports its wall time, peak RSS (kB) and exit status. The measured
# process is started from this small one: a child forked from the benchmark itself would
# count the benchmark's own memory at the fork in its peak RSS. The peak is the larger of
# the child's own (``wait4``) and the most its process tree held at once, summed over its
# processes every 20 ms (a large file's reader forks a helper: both count).
_MEASURE = """
import os, subprocess, sys, time

def tree_rss(root):
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        stack += children.get(pid, [])
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total

start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
peak = 0
while True:
    pid, status, usage = os.wait4(child.pid, os.WNOHANG)
    if pid:
        break
    peak = max(peak, tree_rss(child.pid))
    time.sleep(0.02)
elapsed = time.perf_counter() - start
print(elapsed, max(peak, usage.ru_maxrss), os.waitstatus_to_exitcode(status))
"""


def check_process(*arguments: Path | str) -> tuple[float, float]:
    """Wall time and peak RSS (MB) of `passlint check ARGUMENTS` in a fresh process."""
    command = [sys.executable, "-m", "passlint", "check", "--exit-zero", "--format", "json"]
    report = subprocess.run(
        [sys.executable, "-c", _MEASURE, *command, *map(str, arguments)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    elapsed, peak, status = float(report[0]), int(report[1]), int(report[2])
    if status not in (0, 1):
        raise RuntimeError(f"passlint check failed on {' '.join(map(str, arguments))}")
    return elapsed, peak / 1024


# Times the analysis of a pl file in a fresh process, as `passlint check` runs it there: a
# module never seen before (no caches), the passes imported beforehand.
_PL_ANALYSIS = """
import os, sys, time
from passlint import pipeline
from passlint.analysis.workspace import Workspace
path = sys.argv[1]
text = open(path).read()
pipeline.analyze("warm_up.py", "import pypto.language as pl\\n")
start = time.perf_counter()
pipeline.analyze(path, text, None, Workspace([os.path.dirname(path)]))
print(time.perf_counter() - start)
"""


def pl_analysis(path: Path) -> float:
    """Seconds `passlint check` spends analysing the pl file ``path`` (start-up aside)."""
    command = [sys.executable, "-c", _PL_ANALYSIS, str(path)]
    return float(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def diagnostics_for(document: str, version: int | None = None) -> Callable[[dict], bool]:
    def match(message: dict) -> bool:
        if message.get("method") != "textDocument/publishDiagnostics":
            return False
        params = message["params"]
        if params["uri"] != document:
            return False
        return version is None or params.get("version") == version

    return match


def has_tl(message: dict) -> bool:
    return any(d.get("code") in TL_CODES for d in message["params"]["diagnostics"])


def p1_p2(path: Path, text: str, runs: int, edits: int) -> tuple[float, float, dict[str, float]]:
    """Median open -> TL diagnostics, one-line edit -> diagnostics of that version, and the
    peak RSS of the server and its worker (MB) meanwhile."""
    client = LspClient(["--debounce", "0"])
    client.watch_rss()
    try:
        warm = path.with_name("warm_" + path.name)
        warm.write_text(
            "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  return %a : tensor<4xf32>\n}\n"
        )
        open_document(
            client,
            warm,
            "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  return %a : tensor<4xf32>\n}\n",
            wait_tl=True,
        )
        opens = []
        for run in range(runs):
            target = path.with_name(f"open{run}_{path.name}")
            target.write_text(text)
            opens.append(open_document(client, target, text, wait_tl=True))
            if run < runs - 1:  # one such module open at a time (the P9 column)
                client.notify("textDocument/didClose", {"textDocument": {"uri": uri(target)}})
        document = uri(path.with_name(f"open{runs - 1}_{path.name}"))
        lines = text.split("\n")
        rng = random.Random(8)
        candidates = [i for i, line in enumerate(lines) if " = " in line and len(line) < 400]
        first: list[float] = []
        version = 1
        for _ in range(edits):
            line = rng.choice(candidates)
            old = lines[line]
            new = old.replace(" = ", " =  ", 1)
            lines[line] = new
            version += 1
            sent = time.perf_counter()
            change_line(client, document, version, line, 0, len(old), new)
            arrived = client.wait_stamp(diagnostics_for(document, version), sent)
            first.append(arrived - sent)
        return statistics.median(opens), statistics.median(first), client.peak_rss()
    finally:
        client.close()


def change_line(
    client: LspClient, document: str, version: int, line: int, start: int, end: int, text: str
) -> None:
    """An incremental didChange replacing characters [start, end) of one line."""
    client.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": document, "version": version},
            "contentChanges": [
                {
                    "range": {
                        "start": {"line": line, "character": start},
                        "end": {"line": line, "character": end},
                    },
                    "text": text,
                }
            ],
        },
    )


def open_document(client: LspClient, path: Path, text: str, wait_tl: bool) -> float:
    document = uri(path)
    sent = time.perf_counter()
    client.notify(
        "textDocument/didOpen",
        {
            "textDocument": {
                "uri": document,
                "languageId": path.suffix.lstrip("."),
                "version": 1,
                "text": text,
            },
        },
    )
    arrived = client.wait_stamp(
        lambda m: diagnostics_for(document)(m) and (not wait_tl or has_tl(m)), sent
    )
    return arrived - sent


def p4_server(path: Path, text: str, edits: int) -> float:
    client = LspClient(["--debounce", "0"])
    try:
        open_document(client, path, text, wait_tl=False)
        document = uri(path)
        lines = text.split("\n")
        times = []
        for version in range(2, edits + 2):
            line = 10 + version
            old = lines[line]
            lines[line] = old + " "
            sent = time.perf_counter()
            change_line(client, document, version, line, len(old), len(old), " ")
            times.append(client.wait_stamp(diagnostics_for(document, version), sent) - sent)
        return statistics.median(times)
    finally:
        client.close()


P7_FEATURES = ("hover", "code action", "document symbols", "inlay hints", "definition")


def p7_features(path: Path, text: str, edits: int) -> dict[str, list[float]]:
    """Seconds each feature takes when asked right after a one-line edit (the analysis of
    the new version still running), per feature over ``edits`` edits."""
    client = LspClient(["--debounce", "0"])
    times: dict[str, list[float]] = {name: [] for name in P7_FEATURES}
    try:
        open_document(client, path, text, wait_tl=True)
        document = uri(path)
        published = client.wait(lambda m: diagnostics_for(document)(m) and has_tl(m))
        lines = text.split("\n")
        ret = next(i for i, line in enumerate(lines) if line.startswith("    return "))
        hover_at = {"line": ret, "character": lines[ret].index("%") + 1}
        doc_id = {"uri": document}
        # The first analysis of the document: a feature waits for it (later ones do not).
        client.request("textDocument/hover", {"textDocument": doc_id, "position": hover_at})
        fixed = next(d for d in published["params"]["diagnostics"] if d.get("data"))
        rng = random.Random(7)
        candidates = [
            i for i, line in enumerate(lines[:ret]) if " = " in line and "%" in line[8:400]
        ]
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": len(lines), "character": 0}}
        for version in range(2, edits + 2):
            line = rng.choice(candidates)
            old = lines[line]
            lines[line] = old.replace(" = ", " =  ", 1)
            change_line(client, document, version, line, 0, len(old), lines[line])
            use_line = rng.choice([c for c in candidates if c != line])
            use = {"line": use_line, "character": lines[use_line].index("%", 8) + 1}
            requests = {
                "hover": ("textDocument/hover", {"textDocument": doc_id, "position": hover_at}),
                "code action": (
                    "textDocument/codeAction",
                    {
                        "textDocument": doc_id,
                        "range": fixed["range"],
                        "context": {"diagnostics": [fixed]},
                    },
                ),
                "document symbols": ("textDocument/documentSymbol", {"textDocument": doc_id}),
                "inlay hints": ("textDocument/inlayHint", {"textDocument": doc_id, "range": whole}),
                "definition": (
                    "textDocument/definition",
                    {"textDocument": doc_id, "position": use},
                ),
            }
            for name, (method, params) in requests.items():
                sent = time.perf_counter()
                client.request(method, params)
                times[name].append(time.perf_counter() - sent)
            time.sleep(0.2)  # typing pace: the next keystroke comes a little later
        return times
    finally:
        client.close()


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def memory_rows(workdir: Path) -> None:
    """Peak RSS of `passlint check` on one huge constant: at most 3x the file + 100 MB."""
    for label, size, hex_blob in (
        ("8 MB hex", 8_000_000, True),
        ("4 MB decimal", 4_000_000, False),
    ):
        path = workdir / f"constant_{'hex' if hex_blob else 'decimal'}.mlir"
        path.write_text(constant_module(size, hex_blob))
        megabytes = path.stat().st_size / 1e6
        elapsed, peak = check_process(path)
        goal = 3 * megabytes + 100
        print(
            row(
                f"M peak RSS, {label} constant ({elapsed:.2f} s)",
                f"{goal:.0f} MB",
                f"{peak:.0f} MB",
                "",
                peak <= goal,
            )
        )


# -- P6: the generic-form module in the server, beside mlir-lsp-server ------------------------

MLIR_LSP = "mlir-lsp-server-22"  # Debian's mlir-22-tools
GENERIC_SIZE = 7_680_000  # the transformer in generic form, when it has to be generated


def generic_module(big: Path) -> tuple[str, str]:
    """P6's input and how it was made: the corpus transformer printed in generic form by
    jaxlib (`mlir-opt --mlir-print-op-generic` cannot read it: no stablehlo dialect), else a
    generated module of the same size in generic form."""
    if big.is_file():
        try:
            from jax._src.interpreters import mlir as jax_mlir
            from jaxlib.mlir import ir

            context = jax_mlir.make_ir_context()
            context.allow_unregistered_dialects = True
            module = ir.Module.parse(big.read_text(), context)
            text = module.operation.get_asm(print_generic_op_form=True)
            ir.Module.parse(text, context)  # jaxlib's parser accepts what it printed
            return text, f"{big.name} printed in generic form by jaxlib"
        except ImportError:
            pass
    generic = True
    return mlir_module(layers_for(GENERIC_SIZE, generic), generic), "generated, generic form"


def _cold_open(command: list[str] | None, path: Path, text: str) -> tuple[LspClient, float]:
    """A fresh server (passlint's, or ``command``) warmed on a small module, then ``path``
    opened: the server and the seconds to its first diagnostics (with TL findings for
    passlint; mlir-lsp-server reports syntax and verifier errors only)."""
    client = LspClient(["--debounce", "0"], command=command)
    client.watch_rss()
    warm = path.with_name("warm_" + path.name)
    small = (
        "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n"
    )
    warm.write_text(small)
    open_document(client, warm, small, wait_tl=command is None)
    client.opened = time.perf_counter()
    return client, open_document(client, path, text, wait_tl=command is None)


def _edits(client: LspClient, path: Path, text: str, edits: int, whole: bool) -> list[float]:
    """Seconds from each one-line edit to the diagnostics of its version (``whole``: the
    change sends the whole text, for a server that only syncs so)."""
    document = uri(path)
    lines = text.split("\n")
    rng = random.Random(6)
    candidates = [i for i, line in enumerate(lines) if " = " in line and len(line) < 400]
    times = []
    for version in range(2, edits + 2):
        line = rng.choice(candidates)
        old = lines[line]
        lines[line] = old.replace(" = ", " =  ", 1)
        sent = time.perf_counter()
        if whole:
            client.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": document, "version": version},
                    "contentChanges": [{"text": "\n".join(lines)}],
                },
            )
        else:
            change_line(client, document, version, line, 0, len(old), lines[line])
        times.append(client.wait_stamp(diagnostics_for(document, version), sent) - sent)
    return times


def _second_publish(client: LspClient, path: Path, since: float) -> float:
    """When the second diagnostics of version 1 of ``path`` since ``since`` arrived."""
    first = client.wait(diagnostics_for(uri(path), 1), since=since)
    return client.wait_stamp(
        lambda m: diagnostics_for(uri(path), 1)(m) and m is not first, since, 300
    )


def p6_rows(workdir: Path, big: Path, runs: int, edits: int) -> None:
    """P6 (and its P9 memory): the generic-form transformer in passlint's server and in
    mlir-lsp-server, each started fresh for every cold open."""
    text, origin = generic_module(big)
    path = workdir / "generic_transformer.mlir"
    path.write_text(text)
    megabytes = len(text.encode()) / 1e6
    print(f"\nP6 input: {origin} ({megabytes:.2f} MB, {text.count(chr(10))} lines)")
    reference = shutil.which(MLIR_LSP)
    theirs_cold: list[float] = []
    theirs_edit: list[float] = []
    if reference is None:
        print(f"  {MLIR_LSP} is not installed (Debian: mlir-22-tools): cold open not compared")
    else:
        for _ in range(runs):
            client, cold = _cold_open([reference], path, text)
            theirs_cold.append(cold)
            client.close()
        client, _ = _cold_open([reference], path, text)
        try:
            theirs_edit = _edits(client, path, text, edits, whole=True)
        finally:
            client.close()
    ours_cold: list[float] = []
    complete: list[float] = []
    peaks: dict[str, float] = {}
    for run in range(runs):
        client, cold = _cold_open(None, path, text)
        ours_cold.append(cold)
        with contextlib.suppress(TimeoutError):  # the full analysis' diagnostics follow
            complete.append(_second_publish(client, path, client.opened) - client.opened)
        if run < runs - 1:
            _merge(peaks, client.peak_rss())
            client.close()
    try:
        ours_edit = _edits(client, path, text, edits, whole=False)
    finally:
        _merge(peaks, client.peak_rss())
        client.close()
    cold, edit = statistics.median(ours_cold), statistics.median(ours_edit)
    if theirs_cold:
        goal = statistics.median(theirs_cold)
        print(
            row(
                "P6 cold open -> diagnostics (median)",
                f"{goal:.2f} s",
                f"{cold:.3f} s",
                f"{cold / goal:.2f} x mlir-lsp",
                cold <= goal,
            )
        )
        print(row(f"P6 {MLIR_LSP} cold open (median)", "", f"{goal:.3f} s", "", None))
    else:
        print(row("P6 cold open -> diagnostics (median)", "", f"{cold:.3f} s", "", None))
    print(row("P6 edit -> diagnostics (median)", "0.050 s", f"{edit:.3f} s", "", edit <= 0.05))
    if theirs_edit:
        median = statistics.median(theirs_edit)
        print(row(f"P6 {MLIR_LSP} edit (whole text; median)", "", f"{median:.3f} s", "", None))
    if complete:
        median = statistics.median(complete)
        print(row("P6 complete analysis after open (information)", "", f"{median:.2f} s", "", None))
    memory_row("P6", megabytes, peaks)


def _merge(peaks: dict[str, float], more: dict[str, float]) -> None:
    for role, peak in more.items():
        peaks[role] = max(peaks.get(role, 0.0), peak)


def memory_row(name: str, megabytes: float, peaks: dict[str, float]) -> None:
    """P9 for a server row: the peak RSS of the server process and of its analysis worker
    (each at most 3x the input + 100 MB; what they held together, which the client also
    samples for P11, is not this row's)."""
    roles = [role for role in ("server", "worker") if role in peaks]
    if not roles:
        print(row(f"P9 {name} peak RSS: not measured here (no /proc)", "", "", "", None))
        return
    goal = 3 * megabytes + 100
    shown = " / ".join(f"{peaks[role]:.0f}" for role in roles)
    print(
        row(
            f"P9 {name} peak RSS, {' / '.join(roles)}",
            f"{goal:.0f} MB",
            f"{shown} MB",
            "",
            max(peaks[role] for role in roles) <= goal,
        )
    )


# -- P8: the upstream StableHLO/MHLO test files, beside jaxlib's parse ------------------------

UPSTREAM = Path(__file__).resolve().parent.parent.parent / "stablehlo-src/stablehlo/tests"


def p8_rows(workdir: Path, upstream: list[Path], runs: int) -> None:
    """P8 (and its P9 memory): `passlint check` of the upstream lit tests in one process,
    beside jaxlib's parser reading each of their `// -----` chunks, in one process."""
    from jaxlib_oracle import available, parse_time

    from passlint.analysis.mlir.parser import split_chunks

    folders = [folder for folder in upstream if folder.is_dir()]
    if folders:
        paths = sorted(p for folder in folders for p in folder.glob("**/*.mlir"))
        origin = ", ".join(str(folder) for folder in folders)
    else:
        corpus = workdir / "upstream"
        corpus.mkdir()
        for name, text in lit_corpus(306, 11_000_000).items():
            (corpus / name).write_text(text)
        folders, paths = [corpus], sorted(corpus.glob("*.mlir"))
        origin = "generated lit tests (no upstream checkout)"
    texts = [path.read_text(encoding="utf-8") for path in paths]
    megabytes = sum(len(text.encode()) for text in texts) / 1e6
    print(f"\nP8 input: {len(paths)} files, {megabytes:.2f} MB: {origin}")
    checks = [check_process("--jobs", "1", *folders) for _ in range(runs)]
    wall, peak = statistics.median(t for t, _ in checks), max(r for _, r in checks)
    if available():
        chunks = [text[a:b] for text in texts for a, b in split_chunks(text)]
        timed = min((parse_time(chunks) for _ in range(runs)), key=lambda t: t.seconds)
        print(
            f"  jaxlib parsed {timed.texts} chunks in {timed.seconds:.3f} s (best of {runs}), "
            f"rejected {timed.rejected}, crashed on {timed.crashed} (left out)"
        )
        print(
            row(
                "P8 passlint check, one process (median)",
                f"{10 * timed.seconds:.2f} s",
                f"{wall:.3f} s",
                f"{wall / timed.seconds:.1f} x jaxlib",
                wall <= 10 * timed.seconds,
            )
        )
    else:
        print(row("P8 passlint check, one process (no jaxlib)", "", f"{wall:.3f} s", "", None))
    goal = 3 * megabytes + 100
    print(row("P9 P8 peak RSS", f"{goal:.0f} MB", f"{peak:.0f} MB", "", peak <= goal))


def row(name: str, goal: str, value: str, ratio: str, met: bool | None) -> str:
    verdict = "" if met is None else ("met" if met else "NOT MET")
    return f"{name:<46} {goal:>10} {value:>12} {ratio:>14} {verdict:>8}"


def pl_rows(args: argparse.Namespace, workdir: Path, ref: float | None) -> int:
    """P4 (one pl file: check, edit), then P5, P4b and their P9 (``pl_workspace``); ratios
    to the MLIR reference ``ref`` when it was measured."""
    if ref is None:
        print(row("metric", "goal", "measured", "x reference", None))
        print("-" * 92)
    pl_text = pl_module(5000)
    pl_path = workdir / "big_kernels.py"
    pl_path.write_text(pl_text)
    pl_check = statistics.median(pl_analysis(pl_path) for _ in range(args.runs))
    print(
        row(
            f"P4 pl check ({pl_text.count(chr(10))} lines, analysis)",
            "0.100 s",
            f"{pl_check:.3f} s",
            ratio(pl_check, ref),
            pl_check <= 0.1,
        )
    )
    pl_process = statistics.median(check_process(pl_path)[0] for _ in range(args.runs))
    print(
        row(
            "P4 pl: passlint check in a fresh process (information)",
            "",
            f"{pl_process:.3f} s",
            ratio(pl_process, ref),
            None,
        )
    )
    pl_edit = p4_server(pl_path, pl_text, args.edits)
    print(
        row(
            "P4 pl edit -> diagnostics (median)",
            "0.030 s",
            f"{pl_edit:.3f} s",
            ratio(pl_edit, ref),
            pl_edit <= 0.03,
        )
    )
    for line in pl_workspace.rows(args.pypto, args.runs, row):
        print(line)
    return 0


def ratio(value: float, ref: float | None) -> str:
    return "" if ref is None else f"{value / ref:.2f}"


# jaxlib's parse of a file in a fresh process: its wall time (the parse alone) and peak RSS.
_JAXLIB_PARSE = """
import resource, sys, time
from jax._src.interpreters import mlir as jax_mlir
from jaxlib.mlir import ir
text = open(sys.argv[1]).read()
context = jax_mlir.make_ir_context()
context.allow_unregistered_dialects = True
start = time.perf_counter()
ir.Module.parse(text, context)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def jaxlib_parse(path: Path) -> tuple[float, float] | None:
    """Seconds and peak RSS (MB) of jaxlib parsing ``path`` (None: no jaxlib here)."""
    run = subprocess.run(
        [sys.executable, "-c", _JAXLIB_PARSE, str(path)], capture_output=True, text=True
    )
    if run.returncode != 0:
        return None
    elapsed, peak = run.stdout.split()
    return float(elapsed), int(peak) / 1024


def p10_rows(workdir: Path, megabytes: float) -> None:
    """P10: `passlint check` of a generated module of ``megabytes`` (pretty and generic, with
    the default settings) beside jaxlib's parse of the same file in a process of its own."""
    for generic in (False, True):
        form = "generic" if generic else "pretty"
        path = workdir / f"module_{megabytes:g}MB_{form}.mlir"
        with path.open("w") as out:
            out.write(mlir_module(layers_for(int(megabytes * 1e6), generic), generic))
        size_mb = path.stat().st_size / 1e6
        elapsed, peak = check_process(path)
        reference_run = jaxlib_parse(path)
        goal_rss = 2 * size_mb + 100
        ratio_text, met = "", None
        if reference_run is not None:
            ratio_text, met = f"{elapsed / reference_run[0]:.2f}", elapsed <= 2 * reference_run[0]
            print(
                row(
                    f"P10 jaxlib parse, {form} {size_mb:.0f} MB (its RSS)",
                    "",
                    f"{reference_run[0]:.2f} s",
                    f"{reference_run[1]:.0f} MB",
                    None,
                )
            )
        label = f"P10 passlint check, {form} {size_mb:.0f} MB"
        print(row(label, "2x jaxlib", f"{elapsed:.2f} s", ratio_text, met))
        print(
            row(
                f"P10 peak RSS, {form}",
                f"{goal_rss:.0f} MB",
                f"{peak:.0f} MB",
                "",
                peak <= goal_rss,
            )
        )
        path.unlink()


_TO_HLO = """
import sys
from jax._src.lib import xla_client
text = open(sys.argv[1]).read()
computation = xla_client._xla.mlir.mlir_module_to_xla_computation(
    text, use_tuple_args=False, return_tuple=False
)
open(sys.argv[2], "w").write(computation.as_hlo_text())
"""

_HLO_TOKENS = """
import gc, sys, time
from passlint.analysis.hlo.parser import parse_tokens
text = open(sys.argv[1]).read()
gc.disable()
start = time.perf_counter()
parse_tokens(text)
print(time.perf_counter() - start)
"""


def h1_rows(workdir: Path, megabytes: float) -> None:
    """H1: HLO text as XLA prints it, checked by passlint, beside jaxlib's parse of the same
    program as MLIR and passlint's token parser (what reads text not as XLA prints it)."""
    mlir = workdir / f"h1_{megabytes:g}MB.mlir"
    mlir.write_text(mlir_module(layers_for(int(megabytes * 1e6))))
    hlo = workdir / f"h1_{megabytes:g}MB.hlo"
    converted = subprocess.run(
        [sys.executable, "-c", _TO_HLO, str(mlir), str(hlo)], capture_output=True, text=True
    )
    if converted.returncode != 0:
        print(
            row("H1 (needs jaxlib to write the HLO: pip install -e '.[bench]')", "", "", "", None)
        )
        return
    size_mb = hlo.stat().st_size / 1e6
    elapsed, peak = check_process(hlo)
    reference_run = jaxlib_parse(mlir)
    tokens = float(
        subprocess.run(
            [sys.executable, "-c", _HLO_TOKENS, str(hlo)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    ratio_text = f"{elapsed / reference_run[0]:.2f}" if reference_run is not None else ""
    if reference_run is not None:
        print(
            row(
                f"H1 jaxlib parse, the program as MLIR ({mlir.stat().st_size / 1e6:.0f} MB)",
                "",
                f"{reference_run[0]:.2f} s",
                f"{reference_run[1]:.0f} MB",
                None,
            )
        )
    print(
        row(
            f"H1 passlint check, HLO text {size_mb:.1f} MB",
            "",
            f"{elapsed:.2f} s",
            ratio_text,
            None,
        )
    )
    print(row("H1 peak RSS", "", f"{peak:.0f} MB", f"{peak / size_mb:.0f} B/B", None))
    print(row("H1 the token parser alone (in process)", "", f"{tokens:.2f} s", "", None))
    mlir.unlink()
    hlo.unlink()


def p11_rows(workdir: Path, megabytes: float, edits: int) -> None:
    """P11: a generated module of ``megabytes`` opened in the server (as an editor opens a
    file: its text in the didOpen), its first TL diagnostics, the full analysis that follows
    (with the progress it reports), one-line edits, and the most the server and its analysis
    process hold at once meanwhile (sampled every 50 ms)."""
    path = workdir / f"p11_{megabytes:g}MB.mlir"
    with path.open("w") as out:
        out.write(mlir_module(layers_for(int(megabytes * 1e6))))
    text = path.read_text()
    size_mb = len(text) / 1e6
    goal_rss = 2 * size_mb + 100
    capabilities = {
        "textDocument": {"publishDiagnostics": {"versionSupport": True}},
        "window": {"workDoneProgress": True},
        "workspace": {"configuration": False},
    }
    client = LspClient(capabilities=capabilities)
    client.watch_rss()
    try:
        document = uri(path)
        started = time.perf_counter()
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": document, "languageId": "mlir", "version": 1, "text": text}},
        )
        sent = time.perf_counter()
        del text
        first = client.wait_stamp(lambda m: diagnostics_for(document, 1)(m) and has_tl(m), sent)
        published = [
            m for _, m in client.messages() if diagnostics_for(document, 1)(m) and has_tl(m)
        ]
        full = client.wait_stamp(
            lambda m: diagnostics_for(document, 1)(m) and m is not published[0], first, 600
        )
        reports = [
            m["params"]["value"]
            for _, m in client.messages()
            if m.get("method") == "$/progress" and m["params"]["value"].get("kind") == "report"
        ]
        opened = client.peak_rss()["together"]
        print(
            row(
                f"P11 send didOpen ({size_mb:.0f} MB, the client's JSON)",
                "",
                f"{sent - started:.2f} s",
                "",
                None,
            )
        )
        print(
            row(
                "P11 sent -> first TL diagnostics",
                "1.00 s",
                f"{first - sent:.2f} s",
                "",
                first - sent <= 1.0,
            )
        )
        shown = f"{full - sent:.1f} s, {len(reports)} reports"
        print(row("P11 sent -> full analysis (progress)", "reported", shown, "", bool(reports)))
        print(
            row(
                "P11 server + worker RSS, open",
                f"{goal_rss:.0f} MB",
                f"{opened:.0f} MB",
                "",
                opened <= goal_rss,
            )
        )
        lines = path.read_text().split("\n")
        rng = random.Random(11)
        candidates = [i for i, line in enumerate(lines) if " = " in line and len(line) < 400]
        client.reset_peaks()
        times = []
        for version in range(2, edits + 2):
            line = rng.choice(candidates)
            old = lines[line]
            lines[line] = old.replace(" = ", " =  ", 1)
            sent = time.perf_counter()
            change_line(client, document, version, line, 0, len(old), lines[line])
            times.append(client.wait_stamp(diagnostics_for(document, version), sent) - sent)
            time.sleep(0.3)
        del lines
        edited = client.peak_rss()["together"]
        median = statistics.median(times)
        print(
            row("P11 edit -> diagnostics (median)", "0.100 s", f"{median:.3f} s", "", median <= 0.1)
        )
        print(
            row(
                "P11 server + worker RSS, edits",
                f"{goal_rss:.0f} MB",
                f"{edited:.0f} MB",
                "",
                edited <= goal_rss,
            )
        )
    finally:
        client.close()
        path.unlink()


# Where the real-editor test (vscode-extension/scripts/e2e-code-server.sh) writes what it
# measured of a module above 50 MB.
P12_RESULT = Path(__file__).resolve().parent.parent / "vscode-extension/.e2e/artifacts/p12.json"


def p12_row(result: Path) -> None:
    """P12: VS Code (code-server), a module above 50 MB, which VS Code does not hand to
    extensions: opened -> TL001 in the Problems panel, as the real-editor test measured it
    (its last run: ``result``)."""
    if not result.is_file():
        print(row("P12 VS Code, module above 50 MB -> TL001", "shown", "(no e2e run)", "", None))
        return
    measured = json.loads(result.read_text())
    label = f"P12 VS Code, {measured['megabytes']} MB module -> TL001 (e2e)"
    print(row(label, "shown", f"{measured['seconds']:.1f} s", "", True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--edits", type=int, default=15)
    parser.add_argument("--big", type=Path, default=BIG)
    parser.add_argument("--series", default="1,2,4,8")
    parser.add_argument("--quick", action="store_true", help="fewer runs, 1x-2x series only")
    parser.add_argument(
        "--rows", default="P1,P2,P3,P4,P6,P7,P8,M,P10,H1,P11,P12,series", help="rows to run"
    )
    parser.add_argument(
        "--upstream",
        type=Path,
        action="append",
        help="P8's folders of upstream .mlir tests (default: an openxla/stablehlo checkout's "
        "stablehlo/tests beside this one, else generated lit tests)",
    )
    parser.add_argument("--pypto", type=Path, help="a checkout of hw-native-sys/pypto (P5)")
    parser.add_argument(
        "--p10-mb", type=float, default=100.0, help="P10's and P11's module size (MB)"
    )
    parser.add_argument("--h1-mb", type=float, default=20.0, help="H1's model size (MB)")
    parser.add_argument("--pl-only", action="store_true", help="the pl rows only (P4, P4b, P5)")
    parser.add_argument(
        "--p12", type=Path, default=P12_RESULT, help="what the real-editor test measured (P12)"
    )
    args = parser.parse_args(argv)
    rows = set(args.rows.upper().split(","))
    # Every process measured imports passlint as an installed copy does: from bytecode (pip
    # writes it when it installs; without it, as under PYTHONDONTWRITEBYTECODE, each fresh
    # process compiles the modules it imports, 0.1-0.2 s).
    compileall.compile_dir(Path(passlint.__file__).parent, quiet=1)
    if args.quick:
        args.runs, args.edits, args.series = 3, 7, "1,2"
    if args.pl_only:
        return pl_rows(args, Path(tempfile.mkdtemp(prefix="passlint-bench-")), None)

    workdir = Path(tempfile.mkdtemp(prefix="passlint-bench-"))
    if args.big.is_file():
        big_text, big_name = args.big.read_text(), args.big.name
    else:
        big_text, big_name = mlir_module(layers_for(4_960_000)), "generated_5MB.mlir"
    big = workdir / big_name
    big.write_text(big_text)
    ref_name, ref = reference(big_text, args.runs)
    size_mb = len(big_text.encode()) / 1e6
    print(
        f"workload: {big_name} ({size_mb:.2f} MB, {big_text.count(chr(10))} lines); "
        f"reference: {ref_name} {ref * 1000:.0f} ms (median of {args.runs})\n"
    )
    print(row("metric", "goal", "measured", "x reference", None))
    print("-" * 92)

    if rows & {"P1", "P2"}:
        p1, p2, peaks = p1_p2(big, big_text, args.runs, args.edits)
        print(
            row("P1 open -> TL diagnostics", "0.50 s", f"{p1:.3f} s", f"{p1 / ref:.2f}", p1 <= 0.5)
        )
        print(
            row(
                "P2 one-line edit -> diagnostics (median)",
                "0.050 s",
                f"{p2:.3f} s",
                f"{p2 / ref:.2f}",
                p2 <= 0.05,
            )
        )
        # (Its worker's runs are superseded by the next open or edit: P3 and P6 show the
        # peak of a complete analysis.)
        memory_row("P1/P2", size_mb, {"server": peaks.get("server", 0.0)})
    if "P3" in rows:
        times = [check_process(big) for _ in range(args.runs)]
        wall = statistics.median(t for t, _ in times)
        rss = max(r for _, r in times)
        print(row("P3 passlint check", "3.00 s", f"{wall:.3f} s", f"{wall / ref:.2f}", wall <= 3.0))
        print(row("P3 peak RSS", "300 MB", f"{rss:.0f} MB", "", rss <= 300))
        goal = 3 * size_mb + 100
        print(row("P9 P3 peak RSS", f"{goal:.0f} MB", f"{rss:.0f} MB", "", rss <= goal))
    if "M" in rows:
        memory_rows(workdir)
    if "P4" in rows:
        pl_rows(args, workdir, ref)
    if "P6" in rows:
        p6_rows(workdir, args.big, args.runs, args.edits)
    if "P8" in rows:
        p8_rows(workdir, args.upstream or [UPSTREAM], args.runs)
    if "P7" in rows:
        for name, values in p7_features(big, big_text, max(args.edits, 20)).items():
            median, tail = statistics.median(values), p95(values)
            print(
                row(
                    f"P7 {name} after an edit (median / p95)",
                    "50/100 ms",
                    f"{median * 1000:.0f}/{tail * 1000:.0f} ms",
                    f"{median / ref:.3f}",
                    median <= 0.05 and tail <= 0.1,
                )
            )
    if "P10" in rows:
        p10_rows(workdir, args.p10_mb)
    if "H1" in rows:
        h1_rows(workdir, args.h1_mb)
    if "P11" in rows:
        p11_rows(workdir, args.p10_mb, args.edits)
    if "P12" in rows:
        p12_row(args.p12)
    if "SERIES" in rows:
        # Last: the 8x modules take over a gigabyte, which would disturb the timings after them.
        for generic in (False, True):
            base = None
            for factor in (int(f) for f in args.series.split(",")):
                text = mlir_module(layers_for(int(4_960_000 * factor), generic), generic)
                path = workdir / f"series_{factor}x{'_generic' if generic else ''}.mlir"
                path.write_text(text)
                elapsed, peak = check_process(path)
                base = base or elapsed / factor
                label = (
                    f"P3 series {factor}x {'generic' if generic else 'pretty'} "
                    f"({len(text) / 1e6:.1f} MB, {peak:.0f} MB RSS)"
                )
                print(
                    row(
                        label,
                        "linear",
                        f"{elapsed:.3f} s",
                        f"{elapsed / factor / base:.2f}/unit",
                        None,
                    )
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
