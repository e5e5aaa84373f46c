// Loaded with `node --require` before the unit tests: `require('vscode')` gets the fake.

import Module = require('node:module');
import * as path from 'node:path';

const fakeVscode = path.join(__dirname, 'vscode.js');
const internal = Module as unknown as {
  _resolveFilename(request: string, parent: unknown, ...rest: unknown[]): string;
};
const resolve = internal._resolveFilename;
internal._resolveFilename = function (request: string, parent: unknown, ...rest: unknown[]): string {
  return request === 'vscode' ? fakeVscode : resolve.call(this, request, parent, ...rest);
};
