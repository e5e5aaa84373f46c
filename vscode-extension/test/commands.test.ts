// Command wiring and the server's life cycle, against the fake `vscode` module and a fake
// language client.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { beforeEach, describe, it } from 'node:test';

import { COMMANDS, registerCommands } from '../src/commands';
import { ClientState, Controller, type ClientLike } from '../src/controller';
import type { ServerLaunch } from '../src/launch';
import { RULE_SCHEME, RuleExplanationProvider, explainActions } from '../src/explain';
import { LEGALIZED_SCHEME, LegalizedModuleProvider, legalizedUri, sourceOf } from '../src/legalized';
import type { ProbeResult } from '../src/interpreter';
import { StatusItem } from '../src/status';
import { TraceChannel } from '../src/traceChannel';
import * as vscode from 'vscode';
import { fake, EventEmitter } from './fakes/vscode';

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { commands: { command: string }[] };
};

class FakeClient implements ClientLike {
  requests: { method: string; params: unknown }[] = [];
  notifications: { method: string; params: unknown }[] = [];
  started = 0;
  disposed = 0;
  answers = new Map<string, unknown>();
  initializeResult: ClientLike['initializeResult'];
  private readonly state = new EventEmitter<{ oldState: number; newState: number }>();
  readonly protocol2CodeConverter = {
    asWorkspaceEdit: (edit: unknown) => Promise.resolve({ converted: edit } as unknown as vscode.WorkspaceEdit),
    asDiagnostics: (diagnostics: unknown[]) => Promise.resolve(diagnostics as vscode.Diagnostic[]),
  };

  constructor(readonly launch: ServerLaunch, readonly cwd: string | undefined, readonly options: unknown, commands: string[] = []) {
    this.initializeResult = { capabilities: { executeCommandProvider: { commands } } };
  }
  start(): Promise<void> {
    this.started++;
    this.state.fire({ oldState: ClientState.Stopped, newState: ClientState.Starting });
    this.state.fire({ oldState: ClientState.Starting, newState: ClientState.Running });
    return Promise.resolve();
  }
  stop(): Promise<void> {
    return this.dispose();
  }
  dispose(): Promise<void> {
    this.disposed++;
    this.state.fire({ oldState: ClientState.Running, newState: ClientState.Stopped });
    return Promise.resolve();
  }
  sendRequest<R>(method: string, params: unknown): Promise<R> {
    this.requests.push({ method, params });
    const command = (params as { command?: string }).command ?? method;
    return Promise.resolve(this.answers.get(command) as R);
  }
  sendNotification(method: string, params: unknown): Promise<void> {
    this.notifications.push({ method, params });
    return Promise.resolve();
  }
  onDidChangeState(listener: (event: { oldState: number; newState: number }) => void): vscode.Disposable {
    return this.state.event(listener);
  }
}

interface Harness {
  controller: Controller;
  clients: FakeClient[];
  status: StatusItem;
  provider: LegalizedModuleProvider;
  probed: string[];
}

function harness(options: {
  pythons?: Record<string, ProbeResult>;
  pythonExtension?: string[];
  serverCommands?: string[];
} = {}): Harness {
  const pythons = options.pythons ?? { python3: { version: [3, 11, 4], hasPasslint: false } };
  const clients: FakeClient[] = [];
  const probed: string[] = [];
  const output = vscode.window.createOutputChannel('passlint', { log: true });
  const status = new StatusItem(COMMANDS.showOutput);
  const controller = new Controller({
    output,
    trace: new TraceChannel('passlint Trace'),
    status,
    bundledLibs: '/ext/bundled/libs',
    pythonExtension: () => Promise.resolve(options.pythonExtension),
    probe: (command) => {
      probed.push(command.join(' '));
      return Promise.resolve(pythons[command.join(' ')] ?? { error: 'was not found' });
    },
    createClient: (launch, cwd, clientOptions) => {
      const client = new FakeClient(launch, cwd, clientOptions, options.serverCommands);
      clients.push(client);
      return client;
    },
  });
  const provider = new LegalizedModuleProvider((uri) => controller.legalize(uri), 5);
  vscode.workspace.registerTextDocumentContentProvider(LEGALIZED_SCHEME, provider);
  registerCommands(controller, provider, output);
  return { controller, clients, status, provider, probed };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 20));
const mlir = vscode.Uri.file('/ws/main.mlir');

beforeEach(() => {
  fake.reset();
  fake.workspaceFolders = [{ uri: vscode.Uri.file('/ws'), name: 'ws', index: 0 }];
});

describe('commands', () => {
  it('registers exactly the commands package.json contributes, plus showOutput for the status item', () => {
    harness();
    const contributed = manifest.contributes.commands.map((c) => c.command).sort();
    assert.deepEqual(contributed, [COMMANDS.fixAll, COMMANDS.restart, COMMANDS.showLegalized].sort());
    const internal = [COMMANDS.showOutput, COMMANDS.showExplanation]; // run from the status item, code actions
    assert.deepEqual([...fake.commands.keys()].sort(), [...contributed, ...internal].sort());
    // the server's own command ids are left for the language client to register
    assert.ok(!fake.commands.has('passlint.fixAll'));
    assert.ok(!fake.commands.has('passlint.legalizedModule'));
  });

  it('Restart Server stops the client and starts a new one', async () => {
    const h = harness();
    await h.controller.start();
    await vscode.commands.executeCommand(COMMANDS.restart);
    assert.equal(h.clients.length, 2);
    assert.equal(h.clients[0]?.disposed, 1);
    assert.equal(h.clients[1]?.started, 1);
    assert.equal(h.status.state, 'running');
  });

  it("Fix All runs the server's passlint.fixAll on the active document", async () => {
    const h = harness({ serverCommands: ['passlint.fixAll', 'passlint.legalizedModule'] });
    await h.controller.start();
    fake.activeTextEditor = { document: { uri: mlir, languageId: 'mlir', version: 7, lineCount: 5, text: '' } };
    fake.textDocuments.push(fake.activeTextEditor.document);
    h.clients[0]?.answers.set('passlint.fixAll', true);
    const changed = await vscode.commands.executeCommand(COMMANDS.fixAll);
    assert.equal(changed, true);
    assert.deepEqual(h.clients[0]?.requests, [
      { method: 'workspace/executeCommand', params: { command: 'passlint.fixAll', arguments: ['file:///ws/main.mlir', 7] } },
    ]);
  });

  it('Fix All applies a WorkspaceEdit the server returns', async () => {
    const h = harness({ serverCommands: ['passlint.fixAll'] });
    await h.controller.start();
    const edit = { changes: { 'file:///ws/main.mlir': [] } };
    h.clients[0]?.answers.set('passlint.fixAll', edit);
    assert.equal(await vscode.commands.executeCommand(COMMANDS.fixAll, mlir), true);
    assert.deepEqual(fake.applied, [{ converted: edit }]);
  });

  it('Fix All falls back to the source.fixAll.passlint code action', async () => {
    const h = harness({ serverCommands: [] });
    await h.controller.start();
    const edit = { label: 'fix all' };
    fake.commandResults.set('vscode.executeCodeActionProvider', [{ title: 'passlint: fix all', edit }]);
    assert.equal(await vscode.commands.executeCommand(COMMANDS.fixAll, mlir), true);
    const asked = fake.executed.find((e) => e.command === 'vscode.executeCodeActionProvider');
    assert.equal(asked?.args[2], 'source.fixAll.passlint');
    assert.deepEqual(fake.applied, [edit]);
  });

  it('Fix All without an editor says what to do', async () => {
    harness();
    assert.equal(await vscode.commands.executeCommand(COMMANDS.fixAll), false);
    assert.match(fake.messages[0]?.text ?? '', /open an \.mlir or pl Python file/);
  });

  it('Show Legalized Module opens a diff editor: the source, and the server output as mlir', async () => {
    const h = harness({ serverCommands: ['passlint.legalizedModule'] });
    await h.controller.start();
    h.clients[0]?.answers.set('passlint.legalizedModule', 'module {\n}\n');
    fake.activeTextEditor = { document: { uri: mlir, languageId: 'mlir', version: 1, lineCount: 5, text: '' } };
    await vscode.commands.executeCommand(COMMANDS.showLegalized);
    const diff = fake.executed.find((e) => e.command === 'vscode.diff');
    assert.ok(diff);
    const [left, right, title] = diff.args as [vscode.Uri, vscode.Uri, string];
    assert.equal(left.toString(), mlir.toString());
    assert.equal(right.scheme, LEGALIZED_SCHEME);
    assert.equal(right.path, '/ws/main.legalized.mlir'); // an .mlir path: VS Code gives it the mlir language
    assert.equal(title, 'main.mlir ↔ legalized');
    assert.equal(sourceOf(right).toString(), mlir.toString());
    // what the right side shows: the server's output, asked for the source
    assert.equal(await h.provider.provideTextDocumentContent(right), 'module {\n}\n');
    assert.deepEqual(h.clients[0]?.requests, [
      { method: 'workspace/executeCommand', params: { command: 'passlint.legalizedModule', arguments: ['file:///ws/main.mlir'] } },
    ]);
  });

  it('Show Legalized Module from the legalized side diffs its source again', async () => {
    const h = harness({ serverCommands: ['passlint.legalizedModule'] });
    await h.controller.start();
    await vscode.commands.executeCommand(COMMANDS.showLegalized, legalizedUri(mlir));
    const diff = fake.executed.find((e) => e.command === 'vscode.diff');
    assert.equal((diff?.args[0] as vscode.Uri).toString(), mlir.toString());
  });

  it("a file VS Code does not hand over is analysed by the server's passlint.analyzeFile, then forgotten", async () => {
    const h = harness();
    await h.controller.start();
    const big = vscode.Uri.file('/ws/big.mlir');
    h.clients[0]?.answers.set('passlint.analyzeFile', { diagnostics: [{ code: 'TL001' }] });
    assert.deepEqual(await h.controller.analyzeFile(big), [{ code: 'TL001' }]);
    h.clients[0]?.answers.set('passlint.analyzeFile', null); // (no such file)
    assert.equal(await h.controller.analyzeFile(big), undefined);
    await h.controller.forgetFile(big);
    assert.deepEqual(
      h.clients[0]?.requests.map((r) => r.params),
      ['passlint.analyzeFile', 'passlint.analyzeFile', 'passlint.forgetFile'].map((command) => ({
        command,
        arguments: ['file:///ws/big.mlir'],
      })),
    );
    assert.deepEqual(await h.controller.toDiagnostics([{ code: 'TL001' }]), [{ code: 'TL001' }]);
  });

  it('the status bar says a file is read from disk', () => {
    const h = harness();
    h.status.set('running');
    h.status.setNote('big.mlir is read from disk');
    assert.match(h.status.text, /passlint \(read from disk\)$/);
    h.status.setNote(undefined);
    assert.match(h.status.text, /passlint$/);
  });

  it('Explain opens `passlint rule CODE` as a read-only document', async () => {
    const h = harness({ serverCommands: ['passlint.explainRule'] });
    await h.controller.start();
    h.clients[0]?.answers.set('passlint.explainRule', 'TL001 (output-aliases-input)\n');
    vscode.workspace.registerTextDocumentContentProvider(
      RULE_SCHEME,
      new RuleExplanationProvider((code) => h.controller.explain(code)),
    );
    await vscode.commands.executeCommand(COMMANDS.showExplanation, 'TL001');
    const shown = fake.shown[0];
    assert.ok(shown);
    assert.equal(shown.document.uri.scheme, RULE_SCHEME);
    assert.equal(shown.document.text, 'TL001 (output-aliases-input)\n');
    assert.deepEqual(h.clients[0]?.requests, [
      { method: 'workspace/executeCommand', params: { command: 'passlint.explainRule', arguments: ['TL001', { show: false }] } },
    ]);
  });

  it("the server's Explain actions run the extension's command", () => {
    const actions = [
      { title: 'Explain TL001', command: { title: 'Explain TL001', command: 'passlint.explainRule', arguments: ['TL001'] } },
      { title: 'Disable TL001 for this line', edit: {} },
    ] as unknown as vscode.CodeAction[];
    explainActions(actions);
    assert.deepEqual(actions[0]?.command, { title: 'Explain TL001', command: COMMANDS.showExplanation, arguments: ['TL001'] });
    assert.equal(actions[1]?.command, undefined);
  });

  it('the legalized view refreshes when its source changes', async () => {
    const h = harness({ serverCommands: ['passlint.legalizedModule'] });
    await h.controller.start();
    h.clients[0]?.answers.set('passlint.legalizedModule', 'v1');
    await vscode.commands.executeCommand(COMMANDS.showLegalized, mlir);
    await vscode.workspace.openTextDocument(legalizedUri(mlir)); // the diff editor's right side
    const refreshed: string[] = [];
    h.provider.onDidChange((uri) => refreshed.push(uri.toString()));
    fake.onDidChangeTextDocument.fire({ document: { uri: mlir, languageId: 'mlir', version: 2, lineCount: 1, text: '' } });
    await flush();
    assert.deepEqual(refreshed, [legalizedUri(mlir).toString()]);
  });

  it('Show Legalized Module shows the error text when the server fails', async () => {
    const h = harness({ serverCommands: [] });
    await h.controller.start();
    await h.controller.stop();
    const text = await h.provider.provideTextDocumentContent(legalizedUri(mlir));
    assert.match(text, /^\/\/ passlint could not legalize \/ws\/main\.mlir:\n\/\/ the passlint server is not running/);
  });
});

describe('server life cycle', () => {
  it('starts the server with the discovered interpreter and the bundled libraries', async () => {
    const h = harness();
    await h.controller.start();
    const client = h.clients[0];
    assert.ok(client);
    assert.equal(client.launch.command, 'python3');
    assert.deepEqual(client.launch.args, ['-P', '-m', 'passlint', 'serve']);
    assert.match(client.launch.env['PYTHONPATH'] ?? '', /^\/ext\/bundled\/libs/);
    assert.equal(client.cwd, '/ws');
    assert.equal(h.status.state, 'running');
    assert.match(h.status.text, /passlint/);
    assert.ok(fake.output.some((line) => line.includes('Python 3.11.4 from path')));
  });

  it('uses the interpreter setting with ${workspaceFolder} expanded', async () => {
    fake.settings['interpreter'] = ['${workspaceFolder}/.venv/bin/python'];
    const h = harness({ pythons: { '/ws/.venv/bin/python': { version: [3, 12, 1] } } });
    await h.controller.start();
    assert.equal(h.clients[0]?.launch.command, '/ws/.venv/bin/python');
    assert.deepEqual(h.probed, ['/ws/.venv/bin/python']);
  });

  it("says once, with a button to the setting, when there is no usable interpreter", async () => {
    const h = harness({ pythons: { python3: { version: [3, 9, 2] } } });
    fake.answers.push('Open Setting');
    await h.controller.start();
    await flush();
    assert.equal(h.clients.length, 0);
    assert.equal(h.status.state, 'noInterpreter');
    assert.equal(fake.messages.length, 1);
    assert.equal(fake.messages[0]?.level, 'error');
    assert.match(fake.messages[0]?.text ?? '', /needs Python 3\.11 or newer.*python3 from PATH is Python 3\.9\.2/);
    assert.deepEqual(fake.messages[0]?.items, ['Open Setting']);
    assert.deepEqual(fake.executed.find((e) => e.command === 'workbench.action.openSettings')?.args, ['passlint.interpreter']);
    await h.controller.restart();
    await h.controller.restart();
    assert.equal(fake.messages.length, 1, 'the message is shown once');
  });

  it('passlint.enable = false starts nothing', async () => {
    fake.settings['enable'] = false;
    const h = harness();
    await h.controller.start();
    assert.equal(h.clients.length, 0);
    assert.equal(h.status.state, 'disabled');
  });

  it('restarts when a launch setting changes and re-sends configuration for analysis settings', async () => {
    const h = harness();
    await h.controller.start();
    fake.changeSettings({ select: ['TL001'] });
    await flush();
    assert.equal(h.clients.length, 1);
    assert.deepEqual(h.clients[0]?.notifications, [
      { method: 'workspace/didChangeConfiguration', params: { settings: { passlint: { select: ['TL001'] } } } },
    ]);
    fake.changeSettings({ importStrategy: 'fromEnvironment' });
    await flush();
    // fromEnvironment needs passlint in the environment: python3 here has none
    assert.equal(h.clients.length, 1);
    assert.equal(h.status.state, 'noInterpreter');
    fake.changeSettings({ importStrategy: 'useBundled', args: ['--log-level', 'debug'] });
    await flush();
    assert.equal(h.clients.length, 2);
    assert.deepEqual(h.clients[1]?.launch.args.slice(-2), ['--log-level', 'debug']);
  });

  it('shows a failed server in the status bar and offers the output', async () => {
    const h = harness();
    const original = FakeClient.prototype.start;
    FakeClient.prototype.start = () => Promise.reject(new Error('exited with code 1'));
    try {
      fake.answers.push('Show Output');
      await h.controller.start();
      await flush();
    } finally {
      FakeClient.prototype.start = original;
    }
    assert.equal(h.status.state, 'failed');
    assert.match(fake.messages[0]?.text ?? '', /the language server did not start \(Error: exited with code 1\)/);
    assert.ok(fake.output.includes('[shown]'));
    const item = fake.statusItems[0];
    assert.equal(item.command, COMMANDS.showOutput);
    assert.match(String(item.tooltip), /server failed/);
    assert.ok(item.visible);
  });

  it('concurrent starts share one client', async () => {
    const h = harness();
    await Promise.all([h.controller.start(), h.controller.start(), h.controller.start()]);
    assert.equal(h.clients.length, 1);
  });
});

describe('protocol trace channel', () => {
  it('is at Trace level exactly while passlint.trace.server is on, and says when that changes', () => {
    const channel = new TraceChannel('passlint Trace');
    assert.equal(channel.logLevel, vscode.LogLevel.Info);
    const levels: number[] = [];
    channel.onDidChangeLogLevel((level) => levels.push(level));
    fake.changeSettings({ 'trace.server': 'verbose' });
    assert.equal(channel.logLevel, vscode.LogLevel.Trace);
    channel.trace('[Trace] Sending request initialize');
    fake.changeSettings({ 'trace.server': 'messages' });
    fake.changeSettings({ 'trace.server': 'off' });
    channel.trace('not written');
    assert.deepEqual(levels, [vscode.LogLevel.Trace, vscode.LogLevel.Info]);
    assert.equal(fake.output.filter((line) => line.includes('Sending request initialize')).length, 1);
    assert.ok(!fake.output.some((line) => line.includes('not written')));
    channel.dispose();
  });
});
