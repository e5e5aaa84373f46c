// package.json against the code and the libraries it declares.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { LAUNCH_KEYS } from '../src/settings';

const root = path.join(__dirname, '..', '..');
const read = (...parts: string[]) => JSON.parse(readFileSync(path.join(root, ...parts), 'utf8'));
const manifest = read('package.json');

describe('package.json', () => {
  it("targets the VS Code versions vscode-languageclient supports, typed for the oldest", () => {
    const client = read('node_modules', 'vscode-languageclient', 'package.json');
    assert.equal(manifest.engines.vscode, client.engines.vscode);
    assert.equal(`^${manifest.devDependencies['@types/vscode']}`, manifest.engines.vscode);
    assert.match(manifest.dependencies['vscode-languageclient'], /^11\./);
  });

  it('pins every dependency to one version', () => {
    for (const [name, version] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
      assert.match(String(version), /^\d+\.\d+\.\d+$/, `${name}@${String(version)}`);
    }
  });

  it('activates on .mlir, Python and HLO files, and in a workspace with .mlir files (a file above 50 MB opens no document), and loads the bundle', () => {
    assert.deepEqual(manifest.activationEvents, ['onLanguage:mlir', 'onLanguage:python', 'onLanguage:hlo', 'workspaceContains:**/*.mlir']);
    assert.equal(manifest.main, './dist/extension.js');
  });

  it('contributes the mlir language with its grammar and configuration', () => {
    const [language] = manifest.contributes.languages;
    assert.equal(language.id, 'mlir');
    assert.deepEqual(language.extensions, ['.mlir']);
    const [grammar] = manifest.contributes.grammars;
    assert.equal(grammar.language, 'mlir');
    assert.equal(grammar.scopeName, read(grammar.path).scopeName);
    assert.ok(existsSync(path.join(root, language.configuration)));
  });

  it('contributes the hlo language for .hlo and .hlo.txt files, with its own configuration', () => {
    const hlo = manifest.contributes.languages.find((l: { id: string }) => l.id === 'hlo');
    assert.deepEqual(hlo.extensions, ['.hlo', '.hlo.txt']);
    const configuration = read(hlo.configuration);
    assert.deepEqual(configuration.comments, { lineComment: '//', blockComment: ['/*', '*/'] });
  });

  it('contributes the settings the extension reads, each with a default and a description', () => {
    const properties = manifest.contributes.configuration.properties as Record<string, { default: unknown; description?: string; markdownDescription?: string }>;
    assert.deepEqual(Object.keys(properties).sort(), [
      'passlint.args', 'passlint.enable', 'passlint.extendSelect', 'passlint.ignore', 'passlint.importStrategy',
      'passlint.interpreter', 'passlint.pipeline', 'passlint.select', 'passlint.severity', 'passlint.trace.server',
    ]);
    for (const [key, property] of Object.entries(properties)) {
      assert.ok('default' in property, `${key} has a default`);
      assert.ok(property.description ?? property.markdownDescription, `${key} is described`);
    }
    for (const key of LAUNCH_KEYS) {
      assert.ok(`passlint.${key}` in properties);
    }
  });

  it('is Apache-2.0 licensed like the Python package', () => {
    assert.equal(manifest.license, 'Apache-2.0');
    assert.match(readFileSync(path.join(root, '..', 'pyproject.toml'), 'utf8'), /^license = "Apache-2.0"$/m);
    assert.match(readFileSync(path.join(root, 'LICENSE'), 'utf8'), /Apache License\s+Version 2\.0, January 2004/);
  });
});
