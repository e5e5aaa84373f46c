import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { answerConfiguration, buildClientOptions, DOCUMENT_SELECTOR } from '../src/clientOptions';
import { bundledLibsPath, serverLaunch } from '../src/launch';
import { readLaunchSettings, toServerSection, type ConfigurationReader } from '../src/settings';

const reader = (values: Record<string, unknown>): ConfigurationReader => ({
  get: <T>(key: string) => values[key] as T | undefined,
});

describe('settings -> the server section', () => {
  it('sends nothing for default settings, so the project config decides', () => {
    const defaults = { select: [], extendSelect: [], ignore: [], severity: {}, pipeline: null, enable: true, interpreter: [], importStrategy: 'useBundled', args: [] };
    assert.deepEqual(toServerSection(reader(defaults)), {});
    assert.deepEqual(toServerSection(reader({})), {});
  });

  it('maps each analysis setting to its [tool.passlint] key', () => {
    const section = toServerSection(reader({
      select: ['tl', ' VS001 '],
      extendSelect: ['TL005'],
      ignore: ['TL006', ''],
      severity: { tl001: 'Error', VS001: 'hint', TL002: 'loud' },
      pipeline: 'stablehlo',
    }));
    assert.deepEqual(section, {
      select: ['TL', 'VS001'],
      'extend-select': ['TL005'],
      ignore: ['TL006'],
      severity: { TL001: 'error', VS001: 'hint' },
      pipeline: 'stablehlo',
    });
  });

  it('never sends the editor-only settings the server would reject', () => {
    const section = toServerSection(reader({ enable: false, interpreter: ['/x'], importStrategy: 'fromEnvironment', args: ['--log-level', 'debug'], trace: { server: 'verbose' } }));
    assert.deepEqual(section, {});
  });

  it('drops values of the wrong type', () => {
    assert.deepEqual(toServerSection(reader({ select: 'TL001', ignore: 42, pipeline: 'tpu', severity: ['x'] })), { select: ['TL001'] });
  });

  it('reads the launch settings with their defaults', () => {
    assert.deepEqual(readLaunchSettings(reader({})), { enable: true, interpreter: [], importStrategy: 'useBundled', args: [] });
    assert.deepEqual(
      readLaunchSettings(reader({ enable: false, interpreter: ['/py', '-X', 'utf8'], importStrategy: 'fromEnvironment', args: ['--log-level', 'info'] })),
      { enable: false, interpreter: ['/py', '-X', 'utf8'], importStrategy: 'fromEnvironment', args: ['--log-level', 'info'] },
    );
    assert.equal(readLaunchSettings(reader({ importStrategy: 'bogus' })).importStrategy, 'useBundled');
  });
});

describe('workspace/configuration middleware', () => {
  it("answers the passlint items with the mapped section and passes the others on", async () => {
    const asked: unknown[] = [];
    const answer = await answerConfiguration(
      { items: [{ section: 'editor' }, { section: 'passlint', scopeUri: 'file:///ws/a.mlir' }, { section: 'files' }] },
      (scope) => ({ pipeline: 'mhlo', select: [scope ?? 'none'] }),
      (params) => {
        asked.push(params);
        return Promise.resolve(['editor-value', 'files-value']);
      },
    );
    assert.deepEqual(asked, [{ items: [{ section: 'editor' }, { section: 'files' }] }]);
    assert.deepEqual(answer, ['editor-value', { pipeline: 'mhlo', select: ['file:///ws/a.mlir'] }, 'files-value']);
  });

  it('does not call the default handler when only passlint is asked', async () => {
    const answer = await answerConfiguration({ items: [{ section: 'passlint' }] }, () => ({}), () => {
      throw new Error('not expected');
    });
    assert.deepEqual(answer, [{}]);
  });

  it('is wired into the client options with .mlir, HLO and Python documents', async () => {
    const output = { name: 'passlint' } as never;
    const trace = { name: 'passlint Trace' } as never;
    const options = buildClientOptions(output, trace, () => ({ ignore: ['TL006'] }));
    assert.equal(options.outputChannel, output);
    assert.equal(options.traceOutputChannel, trace);
    assert.deepEqual(options.documentSelector, DOCUMENT_SELECTOR);
    const languages = DOCUMENT_SELECTOR.map((s) => ('language' in s ? s.language : s.pattern));
    assert.deepEqual([...new Set(languages)].sort(), ['**/*.hlo', '**/*.mlir', 'hlo', 'mlir', 'python']);
    const configuration = options.middleware?.workspace?.configuration;
    assert.ok(configuration);
    const result = await configuration({ items: [{ section: 'passlint' }] }, {} as never, () => []);
    assert.deepEqual(result, [{ ignore: ['TL006'] }]);
  });
});

describe('server command line', () => {
  const libs = bundledLibsPath('/ext');

  it('puts the bundled folder first on PYTHONPATH by default', () => {
    const launch = serverLaunch(['/usr/bin/python3'], { importStrategy: 'useBundled', args: [] }, libs, { PATH: '/bin', PYTHONPATH: '/mine' });
    assert.equal(libs, path.join('/ext', 'bundled', 'libs'));
    assert.equal(launch.command, '/usr/bin/python3');
    assert.deepEqual(launch.args, ['-P', '-m', 'passlint', 'serve']);
    assert.equal(launch.env['PYTHONPATH'], `${libs}${path.delimiter}/mine`);
    assert.equal(launch.env['PATH'], '/bin');
  });

  it("leaves PYTHONPATH alone with importStrategy fromEnvironment and passes the user's args", () => {
    const launch = serverLaunch(['py', '-3.12'], { importStrategy: 'fromEnvironment', args: ['--log-level', 'debug'] }, libs, {});
    assert.equal(launch.command, 'py');
    assert.deepEqual(launch.args, ['-3.12', '-P', '-m', 'passlint', 'serve', '--log-level', 'debug']);
    assert.equal(launch.env['PYTHONPATH'], undefined);
  });

  it('refuses an empty interpreter', () => {
    assert.throws(() => serverLaunch([], { importStrategy: 'useBundled', args: [] }, libs, {}), /no interpreter/);
  });
});
