// Installs passlint (from this repository) and its pure-Python dependencies into
// bundled/libs, the folder the extension puts first on PYTHONPATH. Runs at package time
// (`vscode:prepublish`); the folder is never committed.
//
// The Python used: $PASSLINT_BUNDLE_PYTHON, else the repository's .venv, else python3. Use a
// Python 3.11 (the oldest supported) so that dependencies needed only on older versions of
// the standard library are included.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const extensionRoot = path.resolve(here, '..');
const repoRoot = path.resolve(extensionRoot, '..');
const target = path.join(extensionRoot, 'bundled', 'libs');

const venvPython = path.join(repoRoot, '.venv', process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python');
const python = process.env.PASSLINT_BUNDLE_PYTHON || (existsSync(venvPython) ? venvPython : 'python3');

const version = execFileSync(python, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])']).toString().trim();
console.log(`bundle-python: ${python} (Python ${version}) -> ${path.relative(extensionRoot, target)}`);
if (version !== '3.11') {
  console.warn(`bundle-python: warning: packaging with Python ${version}; 3.11 gives the widest set of dependencies`);
}

rmSync(path.join(extensionRoot, 'bundled'), { recursive: true, force: true });
execFileSync(
  python,
  ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-compile', '--no-warn-script-location',
    '--target', target, repoRoot],
  { stdio: 'inherit' },
);

// Console scripts are for the packaging interpreter only; caches are not shipped.
rmSync(path.join(target, 'bin'), { recursive: true, force: true });
const prune = (dir) => {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name === '__pycache__') {
        rmSync(full, { recursive: true, force: true });
      } else {
        prune(full);
      }
    }
  }
};
prune(target);

const binaries = [];
const findBinaries = (dir) => {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      findBinaries(full);
    } else if (/\.(so|pyd|dylib)$/.test(name)) {
      binaries.push(path.relative(target, full));
    }
  }
};
findBinaries(target);
if (binaries.length > 0) {
  throw new Error(`bundle-python: compiled modules would tie the .vsix to one platform: ${binaries.join(', ')}`);
}
console.log(`bundle-python: ${readdirSync(target).sort().join(' ')}`);
