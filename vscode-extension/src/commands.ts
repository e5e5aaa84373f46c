// The extension's commands. Their ids differ from the server's own commands
// (`passlint.fixAll`, `passlint.legalizedModule`), which the language client registers itself.

import * as vscode from 'vscode';

import type { Controller } from './controller';
import { SHOW_EXPLANATION, showExplanation } from './explain';
import { LEGALIZED_SCHEME, legalizedUri, sourceOf, type LegalizedModuleProvider } from './legalized';

export const COMMANDS = {
  restart: 'passlint.restartServer',
  fixAll: 'passlint.applyFixAll',
  showLegalized: 'passlint.showLegalizedModule',
  showOutput: 'passlint.showOutput',
  showExplanation: SHOW_EXPLANATION,
} as const;

type Fixer = Pick<Controller, 'restart' | 'fixAll'>;

function targetUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) {
    return arg;
  }
  const uri = vscode.window.activeTextEditor?.document.uri;
  if (uri?.scheme === LEGALIZED_SCHEME) {
    return sourceOf(uri);
  }
  return uri;
}

function report(action: string, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  void vscode.window.showErrorMessage(`passlint: ${action} failed: ${message}`);
}

export function registerCommands(
  controller: Fixer,
  provider: LegalizedModuleProvider,
  output: vscode.OutputChannel,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(COMMANDS.restart, async () => {
      try {
        await controller.restart();
      } catch (error) {
        report('restart', error);
      }
    }),
    vscode.commands.registerCommand(COMMANDS.fixAll, async (arg?: unknown) => {
      const uri = targetUri(arg);
      if (uri === undefined) {
        void vscode.window.showInformationMessage('passlint: open an .mlir or pl Python file to fix.');
        return false;
      }
      try {
        return await controller.fixAll(uri);
      } catch (error) {
        report('Fix All', error);
        return false;
      }
    }),
    vscode.commands.registerCommand(COMMANDS.showLegalized, async (arg?: unknown) => {
      const uri = targetUri(arg);
      if (uri === undefined) {
        void vscode.window.showInformationMessage('passlint: open an .mlir file to legalize.');
        return undefined;
      }
      const source = uri.scheme === LEGALIZED_SCHEME ? sourceOf(uri) : uri;
      provider.sourceChanged(source); // refresh a view that is already open
      const name = source.path.split('/').pop() ?? source.toString();
      // A diff editor: the document on the left, `passlint legalize` of it on the right.
      return vscode.commands.executeCommand('vscode.diff', source, legalizedUri(source), `${name} ↔ legalized`, {
        preview: false,
      });
    }),
    vscode.commands.registerCommand(COMMANDS.showOutput, () => output.show(true)),
    vscode.commands.registerCommand(COMMANDS.showExplanation, (code?: unknown) => showExplanation(code)),
  ];
}
