// .mlirbc files (MLIR bytecode, StableHLO portable artifacts) opened as MLIR text. Opening one
// starts a read-only custom editor that at once shows, in its place, a virtual mlir document of
// the `passlint-mlirbc` scheme (the file's path): its text is the server's answer to
// `mlir/convertFromBytecode` (the request mlir-lsp-server answers; jaxlib reads the bytes). The
// language client hands that document to the server, which analyses it as MLIR, so its
// findings show as in a .mlir file. When the server cannot read the file (no jaxlib, not
// bytecode, outside the workspace) the document says why, in comments, and so does a message.

import * as vscode from 'vscode';

import { failureText } from './legalized';

export const BYTECODE_SCHEME = 'passlint-mlirbc';
/** The custom editor package.json contributes for `*.mlirbc`. */
export const BYTECODE_EDITOR = 'passlint.mlirbc';
export const CONVERT_FROM_BYTECODE = 'mlir/convertFromBytecode';

/** The MLIR text of the bytecode file at ``file`` (a `file:` URI), from the server. */
export type Convert = (file: vscode.Uri) => Promise<string>;

/** The virtual document showing the text of the bytecode file ``file``. */
export function bytecodeViewUri(file: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({ scheme: BYTECODE_SCHEME, path: file.path });
}

/** The bytecode file a virtual document shows. */
export function bytecodeFileOf(view: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({ scheme: 'file', path: view.path });
}

export class BytecodeTextProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly convert: Convert) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const file = bytecodeFileOf(uri);
    try {
      return await this.convert(file);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(`passlint: ${message}`);
      return failureText(`read ${file.fsPath || file.toString()} as MLIR bytecode`, message);
    }
  }
}

/** Opens the MLIR text of the bytecode file ``file`` as an mlir document. */
export async function openBytecodeAsText(file: vscode.Uri, viewColumn?: vscode.ViewColumn): Promise<unknown> {
  const opened = await vscode.workspace.openTextDocument(bytecodeViewUri(file));
  const document = opened.languageId === 'mlir' ? opened : await vscode.languages.setTextDocumentLanguage(opened, 'mlir');
  return vscode.window.showTextDocument(document, { ...(viewColumn === undefined ? {} : { viewColumn }), preview: true });
}

interface BytecodeFile extends vscode.CustomDocument {
  readonly uri: vscode.Uri;
}

/** The editor of `*.mlirbc` files: it gives its place to the file's text (`openBytecodeAsText`). */
export class BytecodeEditorProvider implements vscode.CustomReadonlyEditorProvider<BytecodeFile> {
  openCustomDocument(uri: vscode.Uri): BytecodeFile {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: BytecodeFile, panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.html = '<!DOCTYPE html><html><body><p>Opening the MLIR text of this bytecode file…</p></body></html>';
    try {
      await openBytecodeAsText(document.uri, panel.viewColumn);
    } finally {
      panel.dispose();
    }
  }
}

/** Registers the virtual documents and the `*.mlirbc` editor; ``convert`` asks the server. */
export function registerBytecode(convert: Convert): vscode.Disposable[] {
  return [
    vscode.workspace.registerTextDocumentContentProvider(BYTECODE_SCHEME, new BytecodeTextProvider(convert)),
    vscode.window.registerCustomEditorProvider(BYTECODE_EDITOR, new BytecodeEditorProvider(), {
      supportsMultipleEditorsPerDocument: true,
    }),
  ];
}
