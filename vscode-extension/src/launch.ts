// The server's command line and environment: `python -P -m passlint serve ARGS` with the
// bundled library folder first on PYTHONPATH (unless importStrategy is fromEnvironment).
// Shared by the extension and the JSON-RPC end-to-end test, so the test starts the server
// exactly the way the extension does.

import * as path from 'node:path';

import type { LaunchSettings } from './settings';

export interface ServerLaunch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** The folder inside the installed extension that holds passlint and its dependencies. */
export function bundledLibsPath(extensionRoot: string): string {
  return path.join(extensionRoot, 'bundled', 'libs');
}

export function serverLaunch(
  interpreter: readonly string[],
  settings: Pick<LaunchSettings, 'importStrategy' | 'args'>,
  bundledLibs: string,
  baseEnv: NodeJS.ProcessEnv = process.env,
): ServerLaunch {
  const [command, ...interpreterArgs] = interpreter;
  if (command === undefined) {
    throw new Error('no interpreter');
  }
  const env: NodeJS.ProcessEnv = { ...baseEnv, PYTHONIOENCODING: 'utf-8' };
  if (settings.importStrategy === 'useBundled') {
    const existing = baseEnv['PYTHONPATH'];
    env['PYTHONPATH'] = existing ? `${bundledLibs}${path.delimiter}${existing}` : bundledLibs;
  }
  return {
    command,
    // -P: do not put the working directory (the user's workspace, which may hold a passlint
    // checkout) in front of the bundled library folder.
    args: [...interpreterArgs, '-P', '-m', 'passlint', 'serve', ...settings.args],
    env,
  };
}
