// Owns the language client: finds an interpreter, starts / stops / restarts the server, keeps
// the status bar in step, reacts to setting changes, and forwards the commands' requests.

import * as vscode from 'vscode';
import type { LanguageClientOptions } from 'vscode-languageclient/node';

import { CONVERT_FROM_BYTECODE } from './bytecode';
import { buildClientOptions } from './clientOptions';
import {
  defaultPathCandidates,
  discoverInterpreter,
  expandVariables,
  probeInterpreter,
  type Discovery,
  type DiscoveryHost,
  type Interpreter,
} from './interpreter';
import { serverLaunch, type ServerLaunch } from './launch';
import { LAUNCH_KEYS, readLaunchSettings, toServerSection, type LaunchSettings } from './settings';
import type { StatusItem } from './status';

/** LSP client states, as `vscode-languageclient` numbers them. */
export const ClientState = { Stopped: 1, Running: 2, Starting: 3, StartFailed: 4 } as const;

/** The part of `LanguageClient` the controller uses (a fake in unit tests). */
export interface ClientLike {
  start(): Promise<void>;
  stop(timeout?: number): Promise<void>;
  dispose(timeout?: number): Promise<void>;
  sendRequest<R>(method: string, params: unknown): Promise<R>;
  sendNotification(method: string, params: unknown): Promise<void>;
  onDidChangeState(listener: (event: { oldState: number; newState: number }) => void): vscode.Disposable;
  readonly initializeResult: { capabilities: { executeCommandProvider?: { commands: string[] } } } | undefined;
  readonly protocol2CodeConverter: {
    asWorkspaceEdit(edit: unknown): Promise<vscode.WorkspaceEdit>;
    asDiagnostics(diagnostics: unknown[]): Promise<vscode.Diagnostic[]>;
  };
}

export type ClientFactory = (launch: ServerLaunch, cwd: string | undefined, options: LanguageClientOptions) => ClientLike;

export interface ControllerDeps {
  createClient: ClientFactory;
  output: vscode.LogOutputChannel;
  /** Where the protocol trace goes (see traceChannel.ts). */
  trace: vscode.LogOutputChannel;
  status: StatusItem;
  bundledLibs: string;
  pythonExtension: (resource?: vscode.Uri) => Promise<string[] | undefined>;
  probe?: DiscoveryHost['probe'];
}

export const SERVER_COMMANDS = {
  legalize: 'passlint.legalizedModule',
  fixAll: 'passlint.fixAll',
  explain: 'passlint.explainRule',
  analyzeFile: 'passlint.analyzeFile',
  forgetFile: 'passlint.forgetFile',
} as const;

export class Controller implements vscode.Disposable {
  client: ClientLike | undefined;
  interpreter: Interpreter | undefined;
  private warnedNoInterpreter = false;
  private starting: Promise<void> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private clientSubscriptions: vscode.Disposable[] = [];

  constructor(private readonly deps: ControllerDeps) {
    this.subscriptions.push(vscode.workspace.onDidChangeConfiguration((event) => void this.configurationChanged(event)));
  }

  private config(scope?: vscode.Uri): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration('passlint', scope ?? null);
  }

  private workspaceFolder(): vscode.WorkspaceFolder | undefined {
    return vscode.workspace.workspaceFolders?.[0];
  }

  async discover(settings: LaunchSettings): Promise<Discovery> {
    const folder = this.workspaceFolder();
    const cwd = folder?.uri.fsPath;
    const probe = this.deps.probe ?? ((command: string[]) => probeInterpreter(command, cwd === undefined ? {} : { cwd }));
    return discoverInterpreter({
      configured: settings.interpreter.map((part) => expandVariables(part, { workspaceFolder: cwd })),
      pythonExtension: () => this.deps.pythonExtension(folder?.uri),
      pathCandidates: defaultPathCandidates(),
      probe,
      importStrategy: settings.importStrategy,
    });
  }

  /** Starts the server unless it runs; concurrent calls share one start. */
  start(): Promise<void> {
    this.starting ??= this.doStart().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async doStart(): Promise<void> {
    if (this.client !== undefined) {
      return;
    }
    const settings = readLaunchSettings(this.config());
    if (!settings.enable) {
      this.deps.status.set('disabled');
      this.deps.output.info('passlint.enable is off: the server is not started.');
      return;
    }
    this.deps.status.set('starting');
    const found = await this.discover(settings);
    for (const candidate of found.rejected) {
      this.deps.output.warn(`Interpreter ${candidate.command.join(' ') || '(none)'} (${candidate.source}) ${candidate.problem ?? ''}`);
    }
    if (!found.ok) {
      this.interpreter = undefined;
      this.deps.status.set('noInterpreter', found.message);
      this.deps.output.error(found.message);
      this.warnNoInterpreter(found.message);
      return;
    }
    this.interpreter = found.interpreter;
    const launch = serverLaunch(found.interpreter.command, settings, this.deps.bundledLibs);
    const cwd = this.workspaceFolder()?.uri.fsPath;
    this.deps.output.info(
      `Starting: ${[launch.command, ...launch.args].join(' ')} (Python ${found.interpreter.version} from ` +
        `${found.interpreter.source}; ${settings.importStrategy === 'useBundled' ? `bundled passlint, PYTHONPATH=${launch.env['PYTHONPATH'] ?? ''}` : "the environment's passlint"})`,
    );
    const client = this.deps.createClient(launch, cwd, buildClientOptions(this.deps.output, this.deps.trace, (scopeUri) =>
      toServerSection(this.config(scopeUri ? vscode.Uri.parse(scopeUri) : undefined)),
    ));
    this.client = client;
    const detail = `Python ${found.interpreter.version}: ${found.interpreter.command.join(' ')}`;
    this.clientSubscriptions.push(client.onDidChangeState(({ newState }) => {
      if (newState === ClientState.Running) {
        this.deps.status.set('running', detail);
      } else if (newState === ClientState.Starting) {
        this.deps.status.set('starting', detail);
      } else if (newState === ClientState.StartFailed) {
        this.deps.status.set('failed', detail);
      } else if (this.client === client) {
        this.deps.status.set('stopped', detail);
      }
    }));
    try {
      await client.start();
      this.deps.status.set('running', detail);
    } catch (error) {
      this.deps.status.set('failed', `${detail}\n${String(error)}`);
      this.deps.output.error(`The server did not start: ${String(error)}`);
      void vscode.window.showErrorMessage(`passlint: the language server did not start (${String(error)}).`, 'Show Output')
        .then((choice) => choice && this.deps.output.show());
    }
  }

  private warnNoInterpreter(message: string): void {
    if (this.warnedNoInterpreter) {
      return;
    }
    this.warnedNoInterpreter = true;
    const open = 'Open Setting';
    void vscode.window.showErrorMessage(message, open).then((choice) => {
      if (choice === open) {
        void vscode.commands.executeCommand('workbench.action.openSettings', 'passlint.interpreter');
      }
    });
  }

  async stop(): Promise<void> {
    await this.starting;
    const client = this.client;
    this.client = undefined;
    this.clientSubscriptions.forEach((s) => s.dispose());
    this.clientSubscriptions = [];
    if (client !== undefined) {
      try {
        await client.dispose(2000);
      } catch (error) {
        this.deps.output.warn(`Stopping the server: ${String(error)}`);
      }
    }
    this.deps.status.set('stopped');
  }

  async restart(): Promise<void> {
    this.deps.output.info('Restarting the server.');
    await this.stop();
    await this.start();
  }

  private async configurationChanged(event: vscode.ConfigurationChangeEvent): Promise<void> {
    if (!event.affectsConfiguration('passlint')) {
      return;
    }
    if (LAUNCH_KEYS.some((key) => event.affectsConfiguration(`passlint.${key}`))) {
      await this.restart();
      return;
    }
    // Analysis settings: tell the server; it asks again through workspace/configuration.
    if (this.client !== undefined) {
      await this.client.sendNotification('workspace/didChangeConfiguration', {
        settings: { passlint: toServerSection(this.config()) },
      });
    }
  }

  private runningClient(): ClientLike {
    if (this.client === undefined) {
      throw new Error('the passlint server is not running');
    }
    return this.client;
  }

  /** The server's legalized module text for the document at ``uri``. */
  async legalize(uri: vscode.Uri): Promise<string> {
    await this.starting;
    const text = await this.runningClient().sendRequest<unknown>('workspace/executeCommand', {
      command: SERVER_COMMANDS.legalize,
      arguments: [uri.toString()],
    });
    if (typeof text !== 'string') {
      throw new Error('the server returned no module');
    }
    return text;
  }

  /** `passlint rule CODE`, from the server (which is told not to show it itself). */
  async explain(code: string): Promise<string> {
    await this.starting;
    const text = await this.runningClient().sendRequest<unknown>('workspace/executeCommand', {
      command: SERVER_COMMANDS.explain,
      arguments: [code, { show: false }],
    });
    if (typeof text !== 'string') {
      throw new Error('the server returned no explanation');
    }
    return text;
  }

  /** The MLIR text of the bytecode file at ``uri`` (`mlir/convertFromBytecode`, as
   * mlir-lsp-server answers it: `{uri}` in, `{output}` out; see bytecode.ts). */
  async convertFromBytecode(uri: vscode.Uri): Promise<string> {
    await this.starting;
    const answer = await this.runningClient().sendRequest<unknown>(CONVERT_FROM_BYTECODE, { uri: uri.toString() });
    const output = answer !== null && typeof answer === 'object' ? (answer as { output?: unknown }).output : undefined;
    if (typeof output !== 'string') {
      throw new Error('the server returned no text');
    }
    return output;
  }

  /** The diagnostics (LSP JSON) of the file at ``uri`` read from disk by the server (a file
   * VS Code does not hand over, see largeFiles.ts); undefined when it could not be read. */
  async analyzeFile(uri: vscode.Uri): Promise<unknown[] | undefined> {
    await this.starting;
    const answer = await this.runningClient().sendRequest<unknown>('workspace/executeCommand', {
      command: SERVER_COMMANDS.analyzeFile,
      arguments: [uri.toString()],
    });
    if (answer === null || typeof answer !== 'object' || !Array.isArray((answer as { diagnostics?: unknown }).diagnostics)) {
      return undefined;
    }
    return (answer as { diagnostics: unknown[] }).diagnostics;
  }

  /** The server forgets the file at ``uri`` read from disk (its last tab closed). */
  async forgetFile(uri: vscode.Uri): Promise<void> {
    await this.starting;
    if (this.client !== undefined) {
      await this.client.sendRequest<unknown>('workspace/executeCommand', {
        command: SERVER_COMMANDS.forgetFile,
        arguments: [uri.toString()],
      });
    }
  }

  /** LSP diagnostics (JSON) as VS Code's. */
  toDiagnostics(diagnostics: unknown[]): Promise<vscode.Diagnostic[]> {
    return this.runningClient().protocol2CodeConverter.asDiagnostics(diagnostics);
  }

  /** Applies every passlint fix in the document at ``uri``. Returns whether anything changed. */
  async fixAll(uri: vscode.Uri): Promise<boolean> {
    await this.starting;
    const client = this.runningClient();
    const commands = client.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
    if (commands.includes(SERVER_COMMANDS.fixAll)) {
      const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      const result = await client.sendRequest<unknown>('workspace/executeCommand', {
        command: SERVER_COMMANDS.fixAll,
        arguments: [uri.toString(), ...(document ? [document.version] : [])],
      });
      // The server either applied the edit itself (workspace/applyEdit) or returns it.
      if (result !== null && typeof result === 'object' && ('changes' in result || 'documentChanges' in result)) {
        return vscode.workspace.applyEdit(await client.protocol2CodeConverter.asWorkspaceEdit(result));
      }
      return result !== false;
    }
    // No server command: the `source.fixAll.passlint` code action does the same.
    const document = await vscode.workspace.openTextDocument(uri);
    const range = new vscode.Range(0, 0, document.lineCount, 0);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[] | undefined>(
      'vscode.executeCodeActionProvider', uri, range, 'source.fixAll.passlint');
    let changed = false;
    for (const action of actions ?? []) {
      if (action.edit !== undefined) {
        changed = (await vscode.workspace.applyEdit(action.edit)) || changed;
      }
      if (action.command !== undefined) {
        await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
        changed = true;
      }
      break; // one fix-all action covers the whole document
    }
    return changed;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    void this.stop();
  }
}
