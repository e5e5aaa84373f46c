// The TextMate grammar, tokenized by vscode-textmate with Oniguruma (what VS Code itself uses).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';

import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';

const root = path.join(__dirname, '..', '..');
let grammar: textmate.IGrammar;

before(async () => {
  const wasm = readFileSync(path.join(root, 'node_modules', 'vscode-oniguruma', 'release', 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text: string) => new oniguruma.OnigString(text),
    }),
    loadGrammar: (scopeName: string) => {
      if (scopeName !== 'source.mlir') {
        return Promise.resolve(null);
      }
      const file = path.join(root, 'syntaxes', 'mlir.tmLanguage.json');
      return Promise.resolve(textmate.parseRawGrammar(readFileSync(file, 'utf8'), file));
    },
  });
  const loaded = await registry.loadGrammar('source.mlir');
  assert.ok(loaded);
  grammar = loaded;
});

/** The innermost scope of each token of ``line``, as [text, scope] pairs (whitespace dropped). */
function tokens(line: string): [string, string][] {
  const { tokens: result } = grammar.tokenizeLine(line, textmate.INITIAL);
  return result
    .map((t): [string, string] => [line.slice(t.startIndex, t.endIndex), t.scopes[t.scopes.length - 1] ?? ''])
    .filter(([text]) => text.trim() !== '');
}

function scopeOf(line: string, text: string): string | undefined {
  return tokens(line).find(([t]) => t === text)?.[1];
}

describe('MLIR grammar', () => {
  it('colours comments and the split marker', () => {
    assert.equal(scopeOf('// a comment %x @y', '// a comment %x @y'), 'comment.line.double-slash.mlir');
    assert.equal(scopeOf('// -----', '// -----'), 'comment.line.double-slash.split.mlir');
    assert.equal(scopeOf('return %0 // done', '// done'), 'comment.line.double-slash.mlir');
  });

  it('colours SSA values, with result numbers', () => {
    const line = '  %0:2 = "test.op"(%arg0, %a.b$c-1, %5#1) : (i32) -> (i32, i32)';
    assert.equal(scopeOf(line, '%0:2'), 'variable.other.ssa.mlir');
    assert.equal(scopeOf(line, '%arg0'), 'variable.other.ssa.mlir');
    assert.equal(scopeOf(line, '%a.b$c-1'), 'variable.other.ssa.mlir');
    assert.equal(scopeOf(line, '%5#1'), 'variable.other.ssa.mlir');
  });

  it('colours symbols, op names (pretty and generic) and block labels', () => {
    const line = '  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {';
    assert.equal(scopeOf(line, 'func.func'), 'entity.name.function.operation.mlir');
    assert.equal(scopeOf(line, '@main'), 'entity.name.function.symbol.mlir');
    const generic = '  %1 = "mhlo.copy"(%0) : (tensor<4xf32>) -> tensor<4xf32>';
    assert.equal(scopeOf(generic, 'mhlo.copy'), 'entity.name.function.operation.mlir');
    assert.equal(scopeOf('^bb0(%x: i32):', '^bb0'), 'entity.name.label.mlir');
    assert.equal(scopeOf('  cf.br ^bb1', '^bb1'), 'entity.name.label.mlir');
    assert.equal(scopeOf('call @"quoted name"(%x)', '@"quoted name"'), 'entity.name.function.symbol.mlir');
  });

  it('colours types, shapes and builtin element types', () => {
    const line = '%c = stablehlo.constant dense<0> : tensor<2x?x8xbf16>';
    assert.equal(scopeOf(line, 'tensor'), 'storage.type.mlir');
    assert.equal(scopeOf(line, '2x?x8x'), 'constant.numeric.dimension.mlir');
    assert.equal(scopeOf(line, 'bf16'), 'storage.type.builtin.mlir');
    assert.equal(scopeOf(line, 'dense'), 'keyword.other.mlir');
    assert.equal(scopeOf('%i = arith.constant 0 : index', 'index'), 'storage.type.builtin.mlir');
    assert.equal(scopeOf('!my.type', '!my.type'), 'entity.name.type.alias.mlir');
  });

  it('colours attributes, strings and numbers', () => {
    const line = 'module @m attributes {mhlo.num_partitions = 1 : i32, output_names = ["out\\22"], scale = -1.5e3, blob = 0x1F} loc(#loc3)';
    assert.equal(scopeOf(line, 'mhlo.num_partitions'), 'variable.parameter.attribute.mlir');
    assert.equal(scopeOf(line, 'output_names'), 'variable.parameter.attribute.mlir');
    assert.equal(scopeOf(line, '1'), 'constant.numeric.integer.mlir');
    assert.equal(scopeOf(line, '-1.5e3'), 'constant.numeric.float.mlir');
    assert.equal(scopeOf(line, '0x1F'), 'constant.numeric.hex.mlir');
    assert.equal(scopeOf(line, '\\22'), 'constant.character.escape.mlir');
    assert.equal(scopeOf(line, '#loc3'), 'constant.other.attribute.mlir');
    assert.equal(scopeOf(line, 'attributes'), 'keyword.other.mlir');
    assert.equal(scopeOf(line, '->'), undefined);
    assert.equal(scopeOf('%r = "a.b"() : () -> i1', '->'), 'keyword.operator.arrow.mlir');
  });
});
