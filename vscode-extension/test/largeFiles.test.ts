// Files VS Code does not hand to extensions (largeFiles.ts), against the fake `vscode` module:
// a .mlir file above 50 MB open in a tab is analysed by the server from disk, its diagnostics
// shown in a collection of their own, analysed again when it changes on disk, let go when
// its tab closes; the status bar says so while it is the active tab.
import * as assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

import * as vscode from 'vscode';

import { LargeFiles, UNSYNCHRONIZED, type LargeFileServer } from '../src/largeFiles';
import { fake } from './fakes/vscode';

class Server implements LargeFileServer {
  analyzed: string[] = [];
  forgotten: string[] = [];
  notes: (string | undefined)[] = [];
  logged: string[] = [];
  analyzeFile(uri: vscode.Uri): Promise<unknown[] | undefined> {
    this.analyzed.push(uri.toString());
    return Promise.resolve([{ code: 'TL001', at: this.analyzed.length }]);
  }
  forgetFile(uri: vscode.Uri): Promise<void> {
    this.forgotten.push(uri.toString());
    return Promise.resolve();
  }
  toDiagnostics(diagnostics: unknown[]): Promise<vscode.Diagnostic[]> {
    return Promise.resolve(diagnostics as vscode.Diagnostic[]);
  }
  setNote(note: string | undefined): void {
    this.notes.push(note);
  }
  log(message: string): void {
    this.logged.push(message);
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('files VS Code does not hand over', () => {
  beforeEach(() => fake.reset());

  it('reads a large module open in a tab from disk, again on a change, and lets go when its tab closes', async () => {
    const big = vscode.Uri.file('/ws/big.mlir');
    const small = vscode.Uri.file('/ws/small.mlir');
    const synced = vscode.Uri.file('/ws/synced.mlir');
    fake.sizes.set(big.toString(), UNSYNCHRONIZED + 1);
    fake.sizes.set(small.toString(), 1000); // (not loaded yet: VS Code will hand it over)
    fake.sizes.set(synced.toString(), UNSYNCHRONIZED + 1);
    fake.textDocuments.push({ uri: synced, languageId: 'mlir', version: 1, lineCount: 1, text: '' });
    const tab = { input: new vscode.TabInputText(big) };
    fake.tabs.push(tab, { input: new vscode.TabInputText(small) }, { input: new vscode.TabInputText(synced) }, { input: {} });
    fake.activeTab = tab;
    const server = new Server();
    const files = new LargeFiles(server);
    await files.refresh();
    await settle();
    assert.deepEqual(files.files, [big.toString()]);
    assert.deepEqual(server.analyzed, [big.toString()]);
    const shown = fake.collections.get('passlint (read from disk)');
    assert.deepEqual(shown?.get(big.toString()), [{ code: 'TL001', at: 1 }]);
    assert.match(server.notes.at(-1) ?? '', /big\.mlir is read from disk: VS Code does not hand files above 50 MB/);

    fake.watchers[0]?.change.fire(big); // saved (changed on disk)
    await settle();
    assert.deepEqual(shown?.get(big.toString()), [{ code: 'TL001', at: 2 }]);

    fake.tabs.splice(0, 1);
    fake.activeTab = undefined;
    fake.onDidChangeTabs.fire({});
    await files.refresh();
    assert.deepEqual(files.files, []);
    assert.deepEqual(server.forgotten, [big.toString()]);
    assert.equal(shown?.has(big.toString()), false);
    assert.equal(fake.watchers[0]?.disposed, true);
    assert.equal(server.notes.at(-1), undefined);
    files.dispose();
  });
});
