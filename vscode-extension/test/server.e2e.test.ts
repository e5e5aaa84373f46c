// End to end over JSON-RPC: the real Python server, started the way the extension starts it
// (interpreter discovery, `serverLaunch`, the bundled library folder on PYTHONPATH, the
// `workspace/configuration` answer from the settings mapping), gives TL001 with its quick fix
// and the legalized module.
//
// Variants:
//   bundled      python3 from PATH (a bare Python) + bundled/libs (built by `npm run build`)
//   environment  importStrategy fromEnvironment with the repository's .venv (when present)
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';

import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';

import { answerConfiguration } from '../src/clientOptions';
import { defaultPathCandidates, discoverInterpreter, probeInterpreter } from '../src/interpreter';
import { bundledLibsPath, serverLaunch } from '../src/launch';
import { toServerSection, type ImportStrategy } from '../src/settings';

const extensionRoot = path.join(__dirname, '..', '..');
const repoRoot = path.join(extensionRoot, '..');
const venvPython = path.join(repoRoot, '.venv', 'bin', 'python');

const ALIASED = 'module {\n  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n    return %arg0 : tensor<4xf32>\n  }\n}\n';
const COPY_LINE = '    %output0_copy = mhlo.copy %arg0 : tensor<4xf32>\n';

interface Diagnostic {
  code?: string | number;
  source?: string;
  message: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}
interface TextEdit { range: Diagnostic['range']; newText: string }
interface CodeAction {
  title: string;
  kind?: string;
  edit?: { changes?: Record<string, TextEdit[]>; documentChanges?: { textDocument: { uri: string }; edits: TextEdit[] }[] };
}

function editsOf(action: CodeAction, uri: string): TextEdit[] {
  return action.edit?.changes?.[uri] ?? action.edit?.documentChanges?.find((d) => d.textDocument.uri === uri)?.edits ?? [];
}

/** Applies LSP text edits (non-overlapping) to ``text``. */
function applyEdits(text: string, edits: TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) =>
    lines.slice(0, p.line).reduce((sum, l) => sum + l.length + 1, 0) + p.character;
  return [...edits]
    .sort((a, b) => offset(b.range.start) - offset(a.range.start))
    .reduce((out, e) => out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end)), text);
}

class Session {
  readonly connection: MessageConnection;
  readonly published = new Map<string, Diagnostic[]>();
  readonly configurationAsked: unknown[] = [];
  private readonly waiters: (() => void)[] = [];
  stderr = '';

  constructor(readonly child: ChildProcessWithoutNullStreams, settings: Record<string, unknown>) {
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    this.connection.onRequest('workspace/configuration', (params: { items: { section?: string; scopeUri?: string }[] }) => {
      this.configurationAsked.push(params);
      return answerConfiguration(params, () => toServerSection({ get: <T>(key: string) => settings[key] as T }), (p) =>
        Promise.resolve((p as { items: unknown[] }).items.map(() => null)));
    });
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onRequest('workspace/applyEdit', () => ({ applied: true }));
    this.connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: Diagnostic[] }) => {
      this.published.set(p.uri, p.diagnostics);
      this.waiters.splice(0).forEach((w) => w());
    });
    this.connection.onNotification(() => undefined);
    this.connection.listen();
  }

  async published_(uri: string, timeoutMs: number): Promise<Diagnostic[]> {
    const deadline = Date.now() + timeoutMs;
    while (!this.published.has(uri)) {
      if (Date.now() > deadline) {
        throw new Error(`no diagnostics published for ${uri}; server stderr:\n${this.stderr}`);
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return this.published.get(uri) ?? [];
  }
}

const children: ChildProcessWithoutNullStreams[] = [];
const folder = mkdtempSync(path.join(os.tmpdir(), 'passlint-e2e-'));
after(() => {
  children.forEach((c) => c.kill());
  rmSync(folder, { recursive: true, force: true });
});

async function startServer(strategy: ImportStrategy, configured: string[], settings: Record<string, unknown>, pull: boolean) {
  const found = await discoverInterpreter({
    configured,
    pythonExtension: () => Promise.resolve(undefined),
    pathCandidates: defaultPathCandidates(),
    probe: (command) => probeInterpreter(command, { cwd: folder }),
    importStrategy: strategy,
  });
  assert.ok(found.ok, found.ok ? '' : found.message);
  const launch = serverLaunch(found.interpreter.command, { importStrategy: strategy, args: [] }, bundledLibsPath(extensionRoot));
  const child = spawn(launch.command, launch.args, { env: launch.env, cwd: folder });
  children.push(child);
  const session = new Session(child, settings);
  const rootUri = pathToFileURL(folder).toString();
  const result = await session.connection.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: 'ws' }],
    capabilities: {
      workspace: { configuration: true, workspaceFolders: true, applyEdit: true, workspaceEdit: { documentChanges: true } },
      textDocument: {
        synchronization: { dynamicRegistration: false },
        publishDiagnostics: { relatedInformation: true, versionSupport: true },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source.fixAll'] } } },
        ...(pull ? { diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } } : {}),
      },
      window: { workDoneProgress: true },
    },
  });
  await session.connection.sendNotification('initialized', {});
  return { session, capabilities: result.capabilities, interpreter: found.interpreter };
}

async function stopServer(session: Session): Promise<number | null> {
  await session.connection.sendRequest('shutdown');
  const exited = new Promise<number | null>((resolve) => session.child.on('exit', (code) => resolve(code)));
  await session.connection.sendNotification('exit');
  const code = await exited;
  session.connection.dispose();
  return code;
}

async function diagnose(session: Session, uri: string, pull: boolean): Promise<Diagnostic[]> {
  if (!pull) {
    return session.published_(uri, 30_000);
  }
  const report = await session.connection.sendRequest<{ kind: string; items: Diagnostic[] }>('textDocument/diagnostic', {
    textDocument: { uri },
  });
  assert.equal(report.kind, 'full');
  return report.items;
}

const variants: { name: string; strategy: ImportStrategy; configured: string[]; available: () => string | undefined }[] = [
  {
    name: 'bundled libraries with python3 from PATH',
    strategy: 'useBundled',
    configured: [],
    // In CI a missing folder is a failure, not a skip.
    available: () => process.env['CI'] || existsSync(path.join(bundledLibsPath(extensionRoot), 'passlint')) ? undefined : 'no bundled/libs (npm run build makes it)',
  },
  {
    name: "the environment's passlint (repository .venv)",
    strategy: 'fromEnvironment',
    configured: [venvPython],
    available: () => process.env['CI'] || existsSync(venvPython) ? undefined : `no ${venvPython}`,
  },
];

for (const variant of variants) {
  describe(`JSON-RPC end to end: ${variant.name}`, { skip: variant.available() }, () => {
    for (const pull of [true, false]) {
      it(`gives TL001 with its quick fix (${pull ? 'pull' : 'push'} diagnostics)`, { timeout: 60_000 }, async () => {
        const file = path.join(folder, `aliased-${variant.strategy}-${pull ? 'pull' : 'push'}.mlir`);
        writeFileSync(file, ALIASED);
        const uri = pathToFileURL(file).toString();
        const { session, capabilities } = await startServer(variant.strategy, variant.configured, { select: [], ignore: [] }, pull);
        if (pull) {
          assert.ok(capabilities['diagnosticProvider'], 'the server offers pull diagnostics');
        }
        await session.connection.sendNotification('textDocument/didOpen', {
          textDocument: { uri, languageId: 'mlir', version: 1, text: ALIASED },
        });
        const diagnostics = await diagnose(session, uri, pull);
        const tl001 = diagnostics.filter((d) => d.code === 'TL001');
        assert.equal(tl001.length, 1, JSON.stringify(diagnostics));
        const [diagnostic] = tl001;
        assert.ok(diagnostic);
        assert.equal(diagnostic.source, 'passlint');
        assert.equal(diagnostic.range.start.line, 2);
        assert.ok(session.configurationAsked.length > 0, 'the server asked for the passlint section');

        const actions = await session.connection.sendRequest<CodeAction[] | null>('textDocument/codeAction', {
          textDocument: { uri },
          range: diagnostic.range,
          context: { diagnostics: [diagnostic], only: ['quickfix'] },
        });
        const fix = (actions ?? []).find((a) => a.kind === 'quickfix');
        assert.ok(fix, JSON.stringify(actions));
        const fixed = applyEdits(ALIASED, editsOf(fix, uri));
        assert.equal(fixed, ALIASED.replace('    return %arg0', `${COPY_LINE}    return %output0_copy`));

        const legalized = await session.connection.sendRequest<string>('workspace/executeCommand', {
          command: 'passlint.legalizedModule',
          arguments: [uri],
        });
        assert.match(legalized, /mhlo\.copy %arg0/);
        assert.equal(await stopServer(session), 0);
      });
    }

    it('applies the settings sent through workspace/configuration', { timeout: 60_000 }, async () => {
      const file = path.join(folder, `ignored-${variant.strategy}.mlir`);
      writeFileSync(file, ALIASED);
      const uri = pathToFileURL(file).toString();
      const { session } = await startServer(variant.strategy, variant.configured, { ignore: ['TL001'] }, true);
      await session.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'mlir', version: 1, text: ALIASED },
      });
      const diagnostics = await diagnose(session, uri, true);
      assert.deepEqual(diagnostics.filter((d) => d.code === 'TL001'), []);
      assert.equal(await stopServer(session), 0);
    });
  });
}
