// Which Python runs the server: the `passlint.interpreter` setting, else the Python
// extension's active interpreter (when that extension is installed), else `python3` on PATH.
// Pure logic over an injected host, so unit tests need neither VS Code nor a Python.

import { execFile } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';

import type { ImportStrategy } from './settings';

export const MIN_PYTHON: readonly [number, number] = [3, 11];

export type InterpreterSource = 'setting' | 'python-extension' | 'path';

export interface ProbeResult {
  /** [major, minor, micro] of the interpreter, when it ran at all. */
  version?: [number, number, number];
  executable?: string;
  /** Whether `import passlint` would find a package in the interpreter's environment. */
  hasPasslint?: boolean;
  /** Why it could not be run (missing file, crash, timeout). */
  error?: string;
}

export interface Interpreter {
  /** The executable followed by its own arguments (e.g. `['py', '-3.12']`). */
  command: string[];
  source: InterpreterSource;
  version: string;
}

export interface Candidate {
  command: string[];
  source: InterpreterSource;
  problem?: string;
  /** Whether it ran at all (false: missing, not executable, crashed): its version is not to blame. */
  started?: boolean;
}

export type Discovery =
  | { ok: true; interpreter: Interpreter; rejected: Candidate[] }
  | { ok: false; rejected: Candidate[]; message: string };

export interface DiscoveryHost {
  /** The `passlint.interpreter` setting, variables already expanded; empty when unset. */
  configured: string[];
  /** The Python extension's active interpreter command, or undefined without that extension. */
  pythonExtension(): Promise<string[] | undefined>;
  /** Commands to try on PATH, in order. */
  pathCandidates: string[][];
  probe(command: string[]): Promise<ProbeResult>;
  importStrategy: ImportStrategy;
}

export function defaultPathCandidates(platform: NodeJS.Platform = process.platform): string[][] {
  return platform === 'win32' ? [['python'], ['py', '-3']] : [['python3'], ['python']];
}

function versionText(version: [number, number, number]): string {
  return version.join('.');
}

/** Why this interpreter cannot run the server, or undefined when it can. */
export function problemWith(result: ProbeResult, strategy: ImportStrategy): string | undefined {
  if (result.version === undefined) {
    return result.error ?? 'could not be started';
  }
  const [major, minor] = result.version;
  if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
    return `is Python ${versionText(result.version)}; passlint needs ${MIN_PYTHON.join('.')} or newer`;
  }
  if (strategy === 'fromEnvironment' && result.hasPasslint !== true) {
    return 'has no passlint installed (passlint.importStrategy is fromEnvironment)';
  }
  return undefined;
}

export async function discoverInterpreter(host: DiscoveryHost): Promise<Discovery> {
  const rejected: Candidate[] = [];
  const attempt = async (command: string[], source: InterpreterSource): Promise<Interpreter | undefined> => {
    const result = await host.probe(command);
    const problem = problemWith(result, host.importStrategy);
    if (problem !== undefined || result.version === undefined) {
      rejected.push({ command, source, problem: problem ?? 'could not be started', started: result.version !== undefined });
      return undefined;
    }
    return { command, source, version: versionText(result.version) };
  };

  if (host.configured.length > 0) {
    // An explicit choice is never silently replaced by another interpreter.
    const chosen = await attempt(host.configured, 'setting');
    return chosen
      ? { ok: true, interpreter: chosen, rejected }
      : { ok: false, rejected, message: failureMessage(rejected) };
  }
  let fromExtension: string[] | undefined;
  try {
    fromExtension = await host.pythonExtension();
  } catch (error) {
    rejected.push({ command: [], source: 'python-extension', problem: `did not answer: ${String(error)}`, started: false });
  }
  if (fromExtension !== undefined && fromExtension.length > 0) {
    const chosen = await attempt(fromExtension, 'python-extension');
    if (chosen) {
      return { ok: true, interpreter: chosen, rejected };
    }
  }
  for (const command of host.pathCandidates) {
    const chosen = await attempt(command, 'path');
    if (chosen) {
      return { ok: true, interpreter: chosen, rejected };
    }
  }
  return { ok: false, rejected, message: failureMessage(rejected) };
}

const SOURCE_NAMES: Record<InterpreterSource, string> = {
  setting: 'passlint.interpreter',
  'python-extension': "the Python extension's interpreter",
  path: 'PATH',
};

/**
 * The toast when no interpreter can run the server. Python's version is blamed only when an
 * interpreter ran and was too old: a `passlint.interpreter` that does not run is named with
 * what is wrong with it, and when nothing ran at all the message says none was found.
 */
export function failureMessage(rejected: Candidate[]): string {
  const configured = rejected.find((c) => c.source === 'setting');
  if (configured !== undefined && configured.started === false) {
    return `passlint.interpreter is set to ${configured.command.join(' ') || '(nothing)'}, which ` +
      `${configured.problem ?? 'could not be started'}: set it to a Python ${MIN_PYTHON.join('.')} ` +
      "or newer, or clear it to use the Python extension's interpreter or PATH's.";
  }
  const details = rejected
    .map((c) => `${c.command.join(' ') || '(none)'} from ${SOURCE_NAMES[c.source]} ${c.problem ?? ''}`.trim())
    .join('; ');
  const lead = rejected.length > 0 && rejected.every((c) => c.started === false)
    ? `No Python could be started to run passlint's language server (it needs ${MIN_PYTHON.join('.')} or newer)`
    : `passlint needs Python ${MIN_PYTHON.join('.')} or newer to run its language server`;
  return lead + (details ? `: ${details}.` : '.');
}

/** Expands `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~`. */
export function expandVariables(
  value: string,
  vars: { workspaceFolder?: string | undefined; home?: string; env?: NodeJS.ProcessEnv } = {},
): string {
  const home = vars.home ?? os.homedir();
  const env = vars.env ?? process.env;
  let out = value.replace(/\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (whole, name: string, envName?: string) => {
    if (name === 'workspaceFolder') {
      return vars.workspaceFolder ?? whole;
    }
    if (name === 'userHome') {
      return home;
    }
    return env[envName ?? ''] ?? '';
  });
  if (out === '~' || out.startsWith('~/') || out.startsWith('~\\')) {
    out = path.join(home, out.slice(1));
  }
  return out;
}

/** What the probe runs: prints the version, the executable and whether passlint is importable. */
export const PROBE_SCRIPT = [
  'import json, os, sys',
  'sys.path = [p for p in sys.path if p not in ("", os.getcwd())]',
  'try:',
  '    import importlib.util as u; found = u.find_spec("passlint") is not None',
  'except Exception:',
  '    found = False',
  'print(json.dumps({"version": list(sys.version_info[:3]), "executable": sys.executable, "passlint": found}))',
].join('\n');

/** Runs `command -c PROBE_SCRIPT` (10 s at most) and reads what it printed. */
export function probeInterpreter(command: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<ProbeResult> {
  const [file, ...args] = command;
  if (file === undefined) {
    return Promise.resolve({ error: 'is empty' });
  }
  return new Promise((resolve) => {
    execFile(
      file,
      [...args, '-c', PROBE_SCRIPT],
      { timeout: 10_000, cwd: options.cwd, env: options.env ?? process.env, windowsHide: true },
      (error, stdout) => {
        const line = stdout.toString().trim().split(/\r?\n/).pop() ?? '';
        try {
          const parsed = JSON.parse(line) as { version?: unknown; executable?: unknown; passlint?: unknown };
          const v = parsed.version;
          if (Array.isArray(v) && v.length === 3 && v.every((n) => typeof n === 'number')) {
            resolve({
              version: v as [number, number, number],
              ...(typeof parsed.executable === 'string' ? { executable: parsed.executable } : {}),
              hasPasslint: parsed.passlint === true,
            });
            return;
          }
        } catch {
          // fall through: not our JSON (a Python 2, a wrapper script, ...)
        }
        const code = (error as (NodeJS.ErrnoException & { code?: unknown }) | null)?.code;
        resolve({
          error: code === 'ENOENT' ? 'was not found' : code === 'EACCES' ? 'is not executable' : `did not run (${error ? error.message.split('\n')[0] : 'no output'})`,
        });
      },
    );
  });
}
