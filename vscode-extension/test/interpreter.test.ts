import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  defaultPathCandidates,
  discoverInterpreter,
  expandVariables,
  failureMessage,
  probeInterpreter,
  problemWith,
  type DiscoveryHost,
  type ProbeResult,
} from '../src/interpreter';

/** A host whose interpreters are a table: command text -> what probing it gives. */
function host(table: Record<string, ProbeResult>, overrides: Partial<DiscoveryHost> = {}): DiscoveryHost & { probed: string[] } {
  const probed: string[] = [];
  return {
    configured: [],
    pythonExtension: () => Promise.resolve(undefined),
    pathCandidates: [['python3'], ['python']],
    importStrategy: 'useBundled',
    probe: (command) => {
      probed.push(command.join(' '));
      return Promise.resolve(table[command.join(' ')] ?? { error: 'was not found' });
    },
    ...overrides,
    probed,
  };
}

const py = (minor: number, hasPasslint = false): ProbeResult => ({ version: [3, minor, 0], hasPasslint });

describe('interpreter discovery', () => {
  it('uses the passlint.interpreter setting first', async () => {
    const h = host({ '/opt/py312/bin/python': py(12), python3: py(11) }, {
      configured: ['/opt/py312/bin/python'],
      pythonExtension: () => Promise.resolve(['/venv/bin/python']),
    });
    const found = await discoverInterpreter(h);
    assert.ok(found.ok);
    assert.deepEqual(found.interpreter, { command: ['/opt/py312/bin/python'], source: 'setting', version: '3.12.0' });
    assert.deepEqual(h.probed, ['/opt/py312/bin/python']);
  });

  it('never falls back from an unusable configured interpreter', async () => {
    const h = host({ '/usr/bin/python3.9': py(9), python3: py(12) }, { configured: ['/usr/bin/python3.9'] });
    const found = await discoverInterpreter(h);
    assert.equal(found.ok, false);
    assert.deepEqual(h.probed, ['/usr/bin/python3.9']);
    assert.match(found.ok ? '' : found.message, /\/usr\/bin\/python3\.9 from passlint\.interpreter is Python 3\.9\.0; passlint needs 3\.11 or newer/);
  });

  it("keeps the configured interpreter's own arguments", async () => {
    const found = await discoverInterpreter(host({ 'py -3.12': py(12) }, { configured: ['py', '-3.12'] }));
    assert.ok(found.ok);
    assert.deepEqual(found.interpreter.command, ['py', '-3.12']);
  });

  it("uses the Python extension's active interpreter when there is no setting", async () => {
    const h = host({ '/venv/bin/python': py(13), python3: py(11) }, {
      pythonExtension: () => Promise.resolve(['/venv/bin/python']),
    });
    const found = await discoverInterpreter(h);
    assert.ok(found.ok);
    assert.equal(found.interpreter.source, 'python-extension');
    assert.deepEqual(found.interpreter.command, ['/venv/bin/python']);
  });

  it("falls back to PATH when the Python extension's interpreter is too old", async () => {
    const h = host({ '/venv/bin/python': py(10), python3: py(11) }, {
      pythonExtension: () => Promise.resolve(['/venv/bin/python']),
    });
    const found = await discoverInterpreter(h);
    assert.ok(found.ok);
    assert.deepEqual(found.interpreter, { command: ['python3'], source: 'path', version: '3.11.0' });
    assert.equal(found.rejected[0]?.source, 'python-extension');
  });

  it('falls back to PATH when the Python extension fails', async () => {
    const found = await discoverInterpreter(host({ python3: py(12) }, {
      pythonExtension: () => Promise.reject(new Error('not ready')),
    }));
    assert.ok(found.ok);
    assert.equal(found.interpreter.source, 'path');
    assert.match(found.rejected[0]?.problem ?? '', /not ready/);
  });

  it('uses python3 on PATH without the Python extension, then python', async () => {
    const first = await discoverInterpreter(host({ python3: py(11) }));
    assert.ok(first.ok);
    assert.deepEqual(first.interpreter.command, ['python3']);
    const second = await discoverInterpreter(host({ python: py(12) }));
    assert.ok(second.ok);
    assert.deepEqual(second.interpreter.command, ['python']);
  });

  it('requires an installed passlint for importStrategy fromEnvironment', async () => {
    const h = host({ '/venv/bin/python': py(12, false), python3: py(12, true) }, {
      importStrategy: 'fromEnvironment',
      pythonExtension: () => Promise.resolve(['/venv/bin/python']),
    });
    const found = await discoverInterpreter(h);
    assert.ok(found.ok);
    assert.deepEqual(found.interpreter.command, ['python3']);
    assert.match(found.rejected[0]?.problem ?? '', /has no passlint installed/);
  });

  it('reports every interpreter it tried when none is usable', async () => {
    const found = await discoverInterpreter(host({ python3: py(8) }));
    assert.equal(found.ok, false);
    if (!found.ok) {
      assert.equal(found.rejected.length, 2);
      assert.equal(
        found.message,
        'passlint needs Python 3.11 or newer to run its language server: python3 from PATH is Python 3.8.0; ' +
          'passlint needs 3.11 or newer; python from PATH was not found.',
      );
    }
  });

  it('names a configured interpreter that does not run, not the Python version', async () => {
    const found = await discoverInterpreter(host({ python3: py(12) }, { configured: ['/opt/none/python'] }));
    assert.equal(found.ok, false);
    if (!found.ok) {
      assert.equal(
        found.message,
        'passlint.interpreter is set to /opt/none/python, which was not found: set it to a Python 3.11 ' +
          "or newer, or clear it to use the Python extension's interpreter or PATH's.",
      );
    }
  });

  it('blames the version of a configured interpreter that is too old', async () => {
    const found = await discoverInterpreter(host({ '/usr/bin/python3.8': py(8) }, { configured: ['/usr/bin/python3.8'] }));
    assert.equal(found.ok, false);
    if (!found.ok) {
      assert.equal(
        found.message,
        'passlint needs Python 3.11 or newer to run its language server: /usr/bin/python3.8 from ' +
          'passlint.interpreter is Python 3.8.0; passlint needs 3.11 or newer.',
      );
    }
  });

  it('says no Python was found when none ran', async () => {
    const found = await discoverInterpreter(host({}));
    assert.equal(found.ok, false);
    if (!found.ok) {
      assert.equal(
        found.message,
        "No Python could be started to run passlint's language server (it needs 3.11 or newer): " +
          'python3 from PATH was not found; python from PATH was not found.',
      );
    }
  });

  it('judges versions at the 3.11 boundary', () => {
    assert.equal(problemWith({ version: [3, 11, 0] }, 'useBundled'), undefined);
    assert.equal(problemWith({ version: [4, 0, 0] }, 'useBundled'), undefined);
    assert.match(problemWith({ version: [3, 10, 14] }, 'useBundled') ?? '', /3\.10\.14/);
    assert.match(problemWith({ version: [2, 7, 18] }, 'useBundled') ?? '', /2\.7\.18/);
    assert.equal(problemWith({ error: 'was not found' }, 'useBundled'), 'was not found');
    assert.equal(failureMessage([]), 'passlint needs Python 3.11 or newer to run its language server.');
  });

  it('tries python3 then python on POSIX, python then py -3 on Windows', () => {
    assert.deepEqual(defaultPathCandidates('linux'), [['python3'], ['python']]);
    assert.deepEqual(defaultPathCandidates('win32'), [['python'], ['py', '-3']]);
  });

  it('expands ${workspaceFolder}, ${userHome}, ${env:X} and ~', () => {
    const vars = { workspaceFolder: '/ws', home: '/home/u', env: { VENV: '/v' } };
    assert.equal(expandVariables('${workspaceFolder}/.venv/bin/python', vars), '/ws/.venv/bin/python');
    assert.equal(expandVariables('${userHome}/py', vars), '/home/u/py');
    assert.equal(expandVariables('${env:VENV}/bin/python', vars), '/v/bin/python');
    assert.equal(expandVariables('~/py/bin/python', vars), '/home/u/py/bin/python');
    assert.equal(expandVariables('${workspaceFolder}/x', { home: '/h' }), '${workspaceFolder}/x');
  });
});

describe('probing a real interpreter', () => {
  it('reads the version of the python3 on PATH', async () => {
    const result = await probeInterpreter(['python3']);
    assert.ok(result.version, `probe failed: ${result.error ?? ''}`);
    assert.equal(result.version[0], 3);
    assert.equal(typeof result.hasPasslint, 'boolean');
  });

  it('says when the interpreter does not exist', async () => {
    const result = await probeInterpreter(['/nonexistent/python3']);
    assert.deepEqual(result, { error: 'was not found' });
  });

  it('says when the command is not a Python', async () => {
    const result = await probeInterpreter(['false']);
    assert.equal(result.version, undefined);
    assert.match(result.error ?? '', /did not run/);
  });
});
