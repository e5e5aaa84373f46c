// Files VS Code does not hand to extensions: a document above 50 MB is never synchronized,
// so the language client never sends it to the server. Its tab is still visible: for each
// .mlir file open in a tab whose document the extension never received, and that is that
// large, the server analyses the file from disk (`passlint.analyzeFile`); its diagnostics
// go to a collection of their own (the Problems view and the editor show them), the file is
// analysed again when it changes on disk (a save), and let go when its last tab closes. The
// status bar says so while such a file is the active tab.

import * as path from 'node:path';

import * as vscode from 'vscode';

/** VS Code synchronizes no document above this many bytes with extensions. */
export const UNSYNCHRONIZED = 50 * 1024 * 1024;

/** What LargeFiles needs of the server (the controller in the extension). */
export interface LargeFileServer {
  /** The file's diagnostics as the server sends them (LSP JSON), or undefined. */
  analyzeFile(uri: vscode.Uri): Promise<unknown[] | undefined>;
  forgetFile(uri: vscode.Uri): Promise<void>;
  toDiagnostics(diagnostics: unknown[]): Promise<vscode.Diagnostic[]>;
  /** The note the status bar shows (undefined: none). */
  setNote(note: string | undefined): void;
  log(message: string): void;
}

export class LargeFiles implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('passlint (read from disk)');
  private readonly tracked = new Map<string, { uri: vscode.Uri; size: number; watcher: vscode.Disposable }>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private refreshing = Promise.resolve();

  constructor(private readonly server: LargeFileServer) {
    this.subscriptions.push(
      vscode.window.tabGroups.onDidChangeTabs(() => this.refresh()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.refresh()),
      vscode.workspace.onDidOpenTextDocument(() => this.refresh()),
    );
  }

  /** Track the files open in tabs that VS Code does not synchronize; show the note. */
  refresh(): Promise<void> {
    this.refreshing = this.refreshing.then(() => this.update()).catch((error) => this.server.log(String(error)));
    return this.refreshing;
  }

  private async update(): Promise<void> {
    const synchronized = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
    const open = new Map<string, vscode.Uri>();
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input;
        if (input instanceof vscode.TabInputText && isModule(input.uri) && !synchronized.has(input.uri.toString())) {
          open.set(input.uri.toString(), input.uri);
        }
      }
    }
    for (const [key, entry] of [...this.tracked]) {
      if (!open.has(key)) {
        this.untrack(key, entry.uri, entry.watcher);
      }
    }
    for (const [key, uri] of open) {
      if (!this.tracked.has(key)) {
        await this.track(key, uri);
      }
    }
    this.showNote();
  }

  private async track(key: string, uri: vscode.Uri): Promise<void> {
    let size: number;
    try {
      size = (await vscode.workspace.fs.stat(uri)).size;
    } catch {
      return;
    }
    if (size < UNSYNCHRONIZED || this.tracked.has(key)) {
      return; // (a tab whose document VS Code has not loaded yet: it will hand it over)
    }
    const folder = vscode.Uri.file(path.dirname(uri.fsPath));
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, path.basename(uri.fsPath)));
    watcher.onDidChange(() => void this.analyze(key, uri));
    watcher.onDidCreate(() => void this.analyze(key, uri));
    this.tracked.set(key, { uri, size, watcher });
    this.server.log(`${uri.fsPath} (${Math.round(size / 1e6)} MB) is not handed to extensions: analysing it from disk.`);
    void this.analyze(key, uri);
  }

  private untrack(key: string, uri: vscode.Uri, watcher: vscode.Disposable): void {
    this.tracked.delete(key);
    watcher.dispose();
    this.collection.delete(uri);
    void this.server.forgetFile(uri).catch((error) => this.server.log(String(error)));
  }

  /** Analyse a tracked file (again) and show its diagnostics while it is tracked. */
  async analyze(key: string, uri: vscode.Uri): Promise<void> {
    try {
      const found = await this.server.analyzeFile(uri);
      if (this.tracked.has(key) && found !== undefined) {
        this.collection.set(uri, await this.server.toDiagnostics(found));
      }
    } catch (error) {
      this.server.log(`Analysing ${uri.fsPath} from disk: ${String(error)}`);
    }
  }

  private showNote(): void {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const entry = input instanceof vscode.TabInputText ? this.tracked.get(input.uri.toString()) : undefined;
    this.server.setNote(
      entry === undefined
        ? undefined
        : `${path.basename(entry.uri.fsPath)} is read from disk: VS Code does not hand files above 50 MB to extensions; it is analysed again when it is saved.`,
    );
  }

  /** The files read from disk, for tests. */
  get files(): string[] {
    return [...this.tracked.keys()];
  }

  dispose(): void {
    for (const [key, entry] of [...this.tracked]) {
      this.untrack(key, entry.uri, entry.watcher);
    }
    this.subscriptions.forEach((s) => s.dispose());
    this.collection.dispose();
  }
}

function isModule(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && uri.path.endsWith('.mlir');
}
