// Entry point: wires the output channel, status bar, controller, commands, the legalized
// module view and the .mlirbc editor, then starts the server.

import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';

import { registerBytecode } from './bytecode';
import { COMMANDS, registerCommands } from './commands';
import { Controller, type ClientLike } from './controller';
import { RULE_SCHEME, RuleExplanationProvider } from './explain';
import { LEGALIZED_SCHEME, LegalizedModuleProvider } from './legalized';
import { LargeFiles } from './largeFiles';
import { bundledLibsPath } from './launch';
import { onDidChangePythonInterpreter, pythonExtensionInterpreter } from './pythonExtension';
import { StatusItem } from './status';
import { TraceChannel } from './traceChannel';

let controller: Controller | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('passlint', { log: true });
  const trace = new TraceChannel('passlint Trace');
  const status = new StatusItem(COMMANDS.showOutput);
  controller = new Controller({
    output,
    trace,
    status,
    bundledLibs: bundledLibsPath(context.extensionPath),
    pythonExtension: pythonExtensionInterpreter,
    createClient: (launch, cwd, options) =>
      new LanguageClient(
        'passlint',
        'passlint',
        { command: launch.command, args: launch.args, options: { env: launch.env, ...(cwd ? { cwd } : {}) } },
        options,
      ) as unknown as ClientLike,
  });
  const running = controller;
  const provider = new LegalizedModuleProvider((uri) => running.legalize(uri));
  context.subscriptions.push(
    output,
    trace,
    status,
    controller,
    provider,
    vscode.workspace.registerTextDocumentContentProvider(LEGALIZED_SCHEME, provider),
    vscode.workspace.registerTextDocumentContentProvider(
      RULE_SCHEME,
      new RuleExplanationProvider((code) => running.explain(code)),
    ),
    ...registerCommands(controller, provider, output),
    // .mlirbc files open as their MLIR text, which the server converts and analyses.
    ...registerBytecode((file) => running.convertFromBytecode(file)),
  );
  const pythonChanged = await onDidChangePythonInterpreter(() => {
    if (vscode.workspace.getConfiguration('passlint').get<string[]>('interpreter', []).length === 0) {
      void running.restart();
    }
  });
  if (pythonChanged) {
    context.subscriptions.push(pythonChanged);
  }
  await controller.start();
  // Files VS Code does not hand over (above 50 MB): the server reads them from disk.
  const largeFiles = new LargeFiles({
    analyzeFile: (uri) => running.analyzeFile(uri),
    forgetFile: (uri) => running.forgetFile(uri),
    toDiagnostics: (diagnostics) => running.toDiagnostics(diagnostics),
    setNote: (note) => status.setNote(note),
    log: (message) => output.info(message),
  });
  context.subscriptions.push(largeFiles);
  await largeFiles.refresh();
}

export async function deactivate(): Promise<void> {
  await controller?.stop();
  controller = undefined;
}
