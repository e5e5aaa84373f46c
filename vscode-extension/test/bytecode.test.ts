// .mlirbc files opened as MLIR text (bytecode.ts), against the fake `vscode` module: the
// editor of `*.mlirbc` gives its place to a `passlint-mlirbc` mlir document whose text the
// server converts (`mlir/convertFromBytecode`), which the language client hands to the server;
// a file the server cannot read shows why.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { beforeEach, describe, it } from 'node:test';

import * as vscode from 'vscode';

import {
  BYTECODE_EDITOR,
  BYTECODE_SCHEME,
  BytecodeEditorProvider,
  CONVERT_FROM_BYTECODE,
  bytecodeFileOf,
  bytecodeViewUri,
  registerBytecode,
} from '../src/bytecode';
import { DOCUMENT_SELECTOR } from '../src/clientOptions';
import { Controller, type ClientLike } from '../src/controller';
import { fake } from './fakes/vscode';

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { customEditors: { viewType: string; selector: { filenamePattern: string }[]; priority: string }[] };
};

const file = vscode.Uri.file('/ws/model.mlirbc');
const TEXT = 'module @identity {\n}\n';

/** A webview panel as the custom editor gets it. */
function panel(): { webview: { html: string }; viewColumn: number; disposed: number; dispose(): void } {
  return { webview: { html: '' }, viewColumn: 1, disposed: 0, dispose() { this.disposed++; } };
}

beforeEach(() => fake.reset());

describe('MLIR bytecode as text', () => {
  it('views a file as a passlint-mlirbc document of the same path, and back', () => {
    const view = bytecodeViewUri(file);
    assert.equal(view.scheme, BYTECODE_SCHEME);
    assert.equal(view.toString(), 'passlint-mlirbc:/ws/model.mlirbc');
    assert.equal(bytecodeFileOf(view).toString(), file.toString());
  });

  it('opens *.mlirbc in its editor by default, which shows the converted text as an mlir document in its place', async () => {
    const [editor] = manifest.contributes.customEditors;
    assert.equal(editor?.viewType, BYTECODE_EDITOR);
    assert.deepEqual(editor?.selector, [{ filenamePattern: '*.mlirbc' }]);
    assert.equal(editor?.priority, 'default');

    const asked: string[] = [];
    registerBytecode((uri) => {
      asked.push(uri.toString());
      return Promise.resolve(TEXT);
    });
    const provider = fake.customEditors.get(BYTECODE_EDITOR)?.provider as BytecodeEditorProvider;
    const document = provider.openCustomDocument(file);
    const shown = panel();
    await provider.resolveCustomEditor(document, shown as unknown as vscode.WebviewPanel);
    assert.deepEqual(asked, [file.toString()]);
    const [opened] = fake.shown;
    assert.equal(opened?.document.uri.toString(), 'passlint-mlirbc:/ws/model.mlirbc');
    assert.equal(opened?.document.text, TEXT);
    assert.equal(opened?.document.languageId, 'mlir');
    assert.deepEqual(fake.languageChanges, [{ uri: 'passlint-mlirbc:/ws/model.mlirbc', languageId: 'mlir' }]);
    assert.deepEqual(opened?.options, { viewColumn: 1, preview: true });
    assert.equal(shown.disposed, 1); // (the custom editor's tab gives way to the text)
  });

  it("says why in the document and a message when the server cannot read the file", async () => {
    registerBytecode(() => Promise.reject(new Error("reading MLIR bytecode needs jaxlib's MLIR bindings (jax is not installed)")));
    const document = await vscode.workspace.openTextDocument(bytecodeViewUri(file));
    assert.equal(
      (document as unknown as { text: string }).text,
      "// passlint could not read /ws/model.mlirbc as MLIR bytecode:\n// reading MLIR bytecode needs jaxlib's MLIR bindings (jax is not installed)\n",
    );
    assert.deepEqual(fake.messages.map((m) => [m.level, m.text]), [
      ['error', "passlint: reading MLIR bytecode needs jaxlib's MLIR bindings (jax is not installed)"],
    ]);
  });

  it('hands the mlir documents of the scheme to the server', () => {
    assert.ok(DOCUMENT_SELECTOR.some((s) => s.scheme === BYTECODE_SCHEME && 'language' in s && s.language === 'mlir'));
  });

  it('asks the server mlir/convertFromBytecode with the file URI, as mlir-lsp-server is asked', async () => {
    const requests: { method: string; params: unknown }[] = [];
    const answers: unknown[] = [{ output: TEXT }, null];
    const client = {
      sendRequest: (method: string, params: unknown) => {
        requests.push({ method, params });
        return Promise.resolve(answers.shift());
      },
    } as unknown as ClientLike;
    const controller = Object.create(Controller.prototype) as Controller;
    controller.client = client;
    assert.equal(await controller.convertFromBytecode(file), TEXT);
    assert.deepEqual(requests, [{ method: CONVERT_FROM_BYTECODE, params: { uri: 'file:///ws/model.mlirbc' } }]);
    await assert.rejects(controller.convertFromBytecode(file), /the server returned no text/);
  });
});
