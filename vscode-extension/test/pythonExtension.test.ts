// The Python extension's active interpreter, read through its API (fake extension objects).
import * as assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

import * as vscode from 'vscode';

import { onDidChangePythonInterpreter, PYTHON_EXTENSION_ID, pythonExtensionInterpreter } from '../src/pythonExtension';
import { EventEmitter, fake } from './fakes/vscode';

beforeEach(() => fake.reset());

describe("the Python extension's interpreter", () => {
  it('is undefined without the Python extension', async () => {
    assert.equal(await pythonExtensionInterpreter(), undefined);
    assert.equal(await onDidChangePythonInterpreter(() => undefined), undefined);
  });

  it('comes from the environments API, activating the extension first', async () => {
    const asked: unknown[] = [];
    const changed = new EventEmitter<unknown>();
    let activated = 0;
    const api = {
      environments: {
        getActiveEnvironmentPath: (resource?: unknown) => {
          asked.push(resource);
          return { id: 'venv', path: '/ws/.venv' };
        },
        resolveEnvironment: (env: { path: string }) =>
          Promise.resolve({ executable: { uri: vscode.Uri.file(`${env.path}/bin/python`) } }),
        onDidChangeActiveEnvironmentPath: changed.event,
      },
    };
    fake.extensions.set(PYTHON_EXTENSION_ID, {
      isActive: false,
      exports: undefined,
      activate: () => {
        activated++;
        return Promise.resolve(api);
      },
    });
    const folder = vscode.Uri.file('/ws');
    assert.deepEqual(await pythonExtensionInterpreter(folder), ['/ws/.venv/bin/python']);
    assert.equal(activated, 1);
    assert.deepEqual(asked, [folder]);
    let calls = 0;
    const subscription = await onDidChangePythonInterpreter(() => calls++);
    changed.fire({});
    assert.equal(calls, 1);
    subscription?.dispose();
    changed.fire({});
    assert.equal(calls, 1);
  });

  it("falls back to the older settings API's execution command", async () => {
    fake.extensions.set(PYTHON_EXTENSION_ID, {
      isActive: true,
      exports: { settings: { getExecutionDetails: () => ({ execCommand: ['conda', 'run', '-n', 'x', 'python'] }) } },
    });
    assert.deepEqual(await pythonExtensionInterpreter(), ['conda', 'run', '-n', 'x', 'python']);
  });

  it('is undefined when no interpreter is selected', async () => {
    fake.extensions.set(PYTHON_EXTENSION_ID, {
      isActive: true,
      exports: {
        environments: {
          getActiveEnvironmentPath: () => ({ id: 'x', path: '' }),
          resolveEnvironment: () => Promise.resolve(undefined),
        },
        settings: { getExecutionDetails: () => ({ execCommand: undefined }) },
      },
    });
    assert.equal(await pythonExtensionInterpreter(), undefined);
  });
});
