// The language client's options: which documents, which output channel, and the middleware
// that answers the server's `workspace/configuration` request for the `passlint` section with
// the mapped server settings (see settings.ts).

import type * as vscode from 'vscode';
import type { ConfigurationParams, LanguageClientOptions } from 'vscode-languageclient/node';

import { BYTECODE_SCHEME } from './bytecode';
import { explainActions } from './explain';
import type { ServerSection } from './settings';

export const DOCUMENT_SELECTOR = [
  { scheme: 'file', language: 'mlir' },
  { scheme: 'untitled', language: 'mlir' },
  // .mlir files whatever language another extension gives them
  { scheme: 'file', pattern: '**/*.mlir' },
  // XLA HLO text (.hlo, .hlo.txt); an XLA dump's .txt file is plain text, checked by `passlint check`
  { scheme: 'file', language: 'hlo' },
  { scheme: 'file', pattern: '**/*.hlo' },
  // the MLIR text of a .mlirbc file (bytecode.ts): the server analyses it as MLIR
  { scheme: BYTECODE_SCHEME, language: 'mlir' },
  // pl kernel sources are Python files; the server ignores Python that does not import pypto.language
  { scheme: 'file', language: 'python' },
  { scheme: 'untitled', language: 'python' },
];

/** Answers one `workspace/configuration` request: ``sectionFor`` maps the `passlint` items. */
export async function answerConfiguration(
  params: ConfigurationParams,
  sectionFor: (scopeUri: string | undefined) => ServerSection,
  next: (params: ConfigurationParams) => Promise<unknown[] | unknown>,
): Promise<unknown[]> {
  const others = params.items.filter((item) => item.section !== 'passlint');
  let answered: unknown[] = [];
  if (others.length > 0) {
    const result = await next({ items: others });
    answered = Array.isArray(result) ? result : others.map(() => null);
  }
  let o = 0;
  return params.items.map((item) =>
    item.section === 'passlint' ? sectionFor(item.scopeUri) : answered[o++] ?? null,
  );
}

export function buildClientOptions(
  outputChannel: vscode.LogOutputChannel,
  traceOutputChannel: vscode.LogOutputChannel,
  sectionFor: (scopeUri: string | undefined) => ServerSection,
): LanguageClientOptions {
  return {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel,
    traceOutputChannel,
    // The extension shows its own message (with a button) when the server cannot start.
    initializationFailedHandler: () => false,
    middleware: {
      provideCodeActions: async (document, range, context, token, next) =>
        explainActions(await next(document, range, context, token)),
      workspace: {
        configuration: (params, _token, next) =>
          answerConfiguration(params, sectionFor, (subset) => Promise.resolve(next(subset, _token))),
      },
    },
  };
}
