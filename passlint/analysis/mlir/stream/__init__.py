"""The streaming reader: a module too large to hold as IR, read as its *hollowed* text.

A model dump of hundreds of megabytes is mostly the bodies of its functions, one op per line,
each op read only by the ops after it. The reader goes through the file once, a window at a
time (``scan``), and marks *holes*: runs of such lines at the top level of a function body,
whose definitions and uses it checks itself with one entry per SSA name. Each hole becomes one
placeholder statement in the hollowed text (``hollowed``): it uses the values the hole reads
from outside it and defines those the rest of the function reads. The hollowed text, a
fraction of the file, is parsed and analysed as any module is; ``confirm`` then checks the
parse put every placeholder where its hole was, and reads the holes' alias uses, before the
findings are moved back to the lines of the file.

Why the findings are the whole parse's: every line the reader cannot prove is a complete,
clean statement at a function's top level, it leaves in the text; what a hole line could be
reported for (an undefined or redefined name, a bad result number, a number out of range, an
alias) either keeps the line in the text or is checked against the parse; and where the
parse shows the holes did not stand where the reader thought, the caller parses the whole
file instead. ``tests/analysis/mlir/test_stream.py`` compares both on every test input.
"""
