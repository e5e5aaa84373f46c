// "Show Legalized Module": a diff editor between the source and the server's
// `passlint.legalizedModule` output, a read-only mlir document (a virtual document of the
// `passlint-legalized` scheme). It is refreshed while the source is edited.

import * as vscode from 'vscode';

export const LEGALIZED_SCHEME = 'passlint-legalized';

export type Legalize = (source: vscode.Uri) => Promise<string>;

/** The virtual document's URI: the source path with `.legalized.mlir`, the source URI as query. */
export function legalizedUri(source: vscode.Uri): vscode.Uri {
  const base = source.path.replace(/\.mlir$/i, '');
  return vscode.Uri.from({ scheme: LEGALIZED_SCHEME, path: `${base}.legalized.mlir`, query: source.toString() });
}

/** The text of an mlir view passlint could not fill: comment lines saying it could not
 * ``what`` (an action and a file) and the error's message. */
export function failureText(what: string, message: string): string {
  return `// passlint could not ${what}:\n// ${message.replace(/\n/g, '\n// ')}\n`;
}

export function sourceOf(legalized: vscode.Uri): vscode.Uri {
  return vscode.Uri.parse(legalized.query);
}

export class LegalizedModuleProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly open = new Set<string>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly legalize: Legalize, private readonly refreshDelayMs = 400) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeTextDocument((event) => this.sourceChanged(event.document.uri)),
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (document.uri.scheme === LEGALIZED_SCHEME) {
          this.open.delete(document.uri.toString());
        }
      }),
    );
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    this.open.add(uri.toString());
    const source = sourceOf(uri);
    try {
      return await this.legalize(source);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return failureText(`legalize ${source.fsPath || source.toString()}`, message);
    }
  }

  /** Re-asks the server for every open legalized view of ``source`` (debounced). */
  sourceChanged(source: vscode.Uri): void {
    if (source.scheme === LEGALIZED_SCHEME) {
      return;
    }
    const target = legalizedUri(source);
    const key = target.toString();
    if (!this.open.has(key)) {
      return;
    }
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      this.changed.fire(target);
    }, this.refreshDelayMs));
  }

  refreshAll(): void {
    for (const key of this.open) {
      this.changed.fire(vscode.Uri.parse(key));
    }
  }

  dispose(): void {
    for (const timer of this.timers.values()) {
      clearTimeout(timer);
    }
    this.subscriptions.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}
