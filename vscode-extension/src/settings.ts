// The extension's settings, read from a plain configuration object, and what the server is
// sent for the `passlint` section of `workspace/configuration`. No `vscode` import here: the
// functions take anything with a `get(key)` so unit tests can hand in a plain map.

export type ImportStrategy = 'useBundled' | 'fromEnvironment';
export type Pipeline = 'auto' | 'mhlo' | 'stablehlo';

/** The subset of `vscode.WorkspaceConfiguration` these functions read. */
export interface ConfigurationReader {
  get<T>(section: string): T | undefined;
}

/** Settings that decide how the server process is started (a change restarts it). */
export interface LaunchSettings {
  enable: boolean;
  interpreter: string[];
  importStrategy: ImportStrategy;
  args: string[];
}

/**
 * The server's `passlint` section (see `passlint/config.py` `settings_from_mapping`): only
 * analysis keys, spelled as in `[tool.passlint]`. Keys left at their defaults are omitted, so
 * the project's own `[tool.passlint]` table decides them.
 */
export interface ServerSection {
  select?: string[];
  'extend-select'?: string[];
  ignore?: string[];
  severity?: Record<string, string>;
  pipeline?: Pipeline;
}

/** Settings whose change restarts the server rather than re-sending configuration. */
export const LAUNCH_KEYS = ['enable', 'interpreter', 'importStrategy', 'args'] as const;

const PIPELINES: readonly string[] = ['auto', 'mhlo', 'stablehlo'];
const SEVERITIES: readonly string[] = ['error', 'warning', 'information', 'info', 'hint'];

function stringList(value: unknown): string[] {
  if (typeof value === 'string') {
    return value.trim() ? [value.trim()] : [];
  }
  if (!Array.isArray(value)) {
    return [];
  }
  return value.filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    .map((item) => item.trim());
}

function codes(value: unknown): string[] {
  return stringList(value).map((code) => code.toUpperCase());
}

export function readLaunchSettings(config: ConfigurationReader): LaunchSettings {
  const strategy = config.get<string>('importStrategy');
  return {
    enable: config.get<boolean>('enable') !== false,
    interpreter: stringList(config.get<unknown>('interpreter')),
    importStrategy: strategy === 'fromEnvironment' ? 'fromEnvironment' : 'useBundled',
    args: stringList(config.get<unknown>('args')),
  };
}

/** Maps the extension's `passlint.*` settings to the server's section. */
export function toServerSection(config: ConfigurationReader): ServerSection {
  const section: ServerSection = {};
  const select = codes(config.get<unknown>('select'));
  if (select.length > 0) {
    // An empty list means "not set" in the settings UI; sent as-is it would select nothing.
    section.select = select;
  }
  const extendSelect = codes(config.get<unknown>('extendSelect'));
  if (extendSelect.length > 0) {
    section['extend-select'] = extendSelect;
  }
  const ignore = codes(config.get<unknown>('ignore'));
  if (ignore.length > 0) {
    section.ignore = ignore;
  }
  const severity = config.get<unknown>('severity');
  if (severity !== null && typeof severity === 'object' && !Array.isArray(severity)) {
    const table: Record<string, string> = {};
    for (const [code, level] of Object.entries(severity as Record<string, unknown>)) {
      if (typeof level === 'string' && SEVERITIES.includes(level.toLowerCase()) && code.trim()) {
        table[code.trim().toUpperCase()] = level.toLowerCase();
      }
    }
    if (Object.keys(table).length > 0) {
      section.severity = table;
    }
  }
  const pipeline = config.get<unknown>('pipeline');
  if (typeof pipeline === 'string' && PIPELINES.includes(pipeline)) {
    section.pipeline = pipeline as Pipeline;
  }
  return section;
}
