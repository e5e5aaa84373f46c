"""The quick answer of a large .mlir carries what the last full analysis found besides it
(syntax errors, unused suppressions), moved to the quick answer's version by the changes
since, and drops those on lines a change replaced; the memo holds few texts meanwhile."""

from __future__ import annotations

import gc

from passlint.analysis.findings import Finding, Position, Range, Severity
from passlint.analysis.text_change import TextChange, replace_span
from passlint.quick import QuickMemo, _Step

TEXT = "".join(f"line {n}\n" for n in range(40))


def finding(code: str, line: int) -> Finding:
    return Finding(
        code, Severity.ERROR, "big.mlir", Range(Position(line, 0), Position(line, 4)), code
    )


def insert_line(text: str, line: int) -> tuple[str, TextChange]:
    at = sum(len(row) + 1 for row in text.split("\n")[:line])
    return replace_span(text, at, at, "new\n", line)


def rows(findings: list[Finding]) -> list[tuple[str, int]]:
    return [(f.code, f.range.start.line) for f in findings]


def test_other_findings_move_with_the_lines_and_tl_findings_come_from_the_quick_answer() -> None:
    memo = QuickMemo()
    memo.full(1, [finding("E001", 10), finding("TL001", 20), finding("PL100", 30)])
    text, change = insert_line(TEXT, 5)
    memo.record(TEXT, text, [change], 2)
    quick = [finding("PL100", 0), finding("TL002", 21)]  # its PL100 may be wrong: dropped
    assert rows(memo.with_carried(2, quick)) == [("E001", 11), ("TL002", 21), ("PL100", 31)]


def test_a_finding_on_a_replaced_line_is_dropped() -> None:
    memo = QuickMemo()
    memo.full(1, [finding("E001", 10), finding("E001", 12)])
    at = TEXT.index("line 10")
    changed, change = replace_span(TEXT, at, at + 4, "LINE", 10)
    memo.record(TEXT, changed, [change], 2)
    assert rows(memo.with_carried(2, [finding("TL001", 3)])) == [("TL001", 3), ("E001", 12)]


def test_a_full_result_older_than_the_last_changes_is_moved_through_them() -> None:
    memo = QuickMemo()
    second, first_change = insert_line(TEXT, 0)
    third, second_change = insert_line(second, 0)
    memo.record(TEXT, second, [first_change], 2)
    memo.record(second, third, [second_change], 3)
    memo.full(2, [finding("E001", 10)])  # the text of version 2: one change since
    assert rows(memo.with_carried(3, [])) == [("E001", 11)]
    assert memo.with_carried(2, []) == []  # not the version it was moved to


def test_nothing_is_carried_across_a_whole_replacement() -> None:
    memo = QuickMemo()
    memo.full(1, [finding("E001", 10)])
    memo.record(TEXT, "other\n", None, 2)
    quick = [finding("TL001", 0), finding("PL100", 0)]
    assert memo.with_carried(2, quick) == quick


def test_changes_recorded_while_no_answer_comes_keep_few_texts() -> None:
    memo = QuickMemo()
    texts = [TEXT]
    for version in range(2, 12):  # ten edits and no quick answer meanwhile
        text, change = insert_line(texts[-1], 0)
        memo.record(texts[-1], text, [change], version)
        texts.append(text)
    held = [t for t in texts if any(isinstance(r, _Step) for r in gc.get_referrers(t))]
    assert len(held) == 5  # the last four steps' texts, each step's shared with the next
    assert held == texts[-5:]
