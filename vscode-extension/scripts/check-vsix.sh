#!/usr/bin/env bash
# Checks a packaged .vsix: the files it must and must not hold, and that its bundled library
# folder imports passlint and its dependencies with a bare Python (isolated, no site-packages)
# and runs `passlint serve --help` the way the extension starts the server.
# Usage: scripts/check-vsix.sh [VSIX] (default passlint.vsix); PYTHON picks the interpreter.
set -euo pipefail
vsix="$(realpath "${1:-passlint.vsix}")"
python="${PYTHON:-python3}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$python" -I -S - "$vsix" "$tmp" <<'PY'
import sys, zipfile
vsix, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(vsix) as archive:
    names = archive.namelist()
    archive.extractall(out)
required = [
    "extension/package.json", "extension/readme.md", "extension/LICENSE.txt", "extension/changelog.md",
    "extension/dist/extension.js", "extension/language-configuration.json",
    "extension/hlo-language-configuration.json",
    "extension/syntaxes/mlir.tmLanguage.json", "extension/bundled/libs/passlint/__init__.py",
    "extension/bundled/libs/passlint/analysis/mlir/mlir.lark",
]
missing = [name for name in required if name not in names]
forbidden = [n for n in names if any(part in n for part in
             ("node_modules/", "/src/", "/out/", "/test/", "/.e2e/", "__pycache__", ".map", "/bundled/libs/bin/"))]
if missing or forbidden:
    sys.exit(f"check-vsix: missing {missing}, must not ship {forbidden[:10]}")
print(f"check-vsix: {len(names)} files, required present, nothing forbidden")
PY

libs="$tmp/extension/bundled/libs"
# 1. A bare Python: -I (no environment variables, no user site), -S (no site-packages at all);
#    only the bundled folder is added to the path.
"$python" -I -S -c '
import sys
libs = sys.argv[1]
sys.path.insert(0, libs)
import passlint, passlint.cli, passlint.server.server, pygls, lsprotocol.types, lark, cattrs, attrs
for module in (passlint, pygls, lsprotocol.types, lark, cattrs, attrs):
    assert module.__file__.startswith(libs), (module.__name__, module.__file__)
print("check-vsix: bare", sys.executable, sys.version.split()[0], "imports passlint from", passlint.__file__[len(libs):])
' "$libs"
# 2. As the extension starts the server: PYTHONPATH=bundled, -P, in an emptied environment.
env -i PATH="$PATH" HOME="$tmp" PYTHONPATH="$libs" "$python" -P -s -m passlint serve --help > "$tmp/help.txt"
grep -q 'passlint serve' "$tmp/help.txt"
echo "check-vsix: python -P -m passlint serve --help runs from the bundled folder"
