// "Explain CODE": `passlint rule CODE` (the server's `passlint.explainRule` text) as a read-only
// document of the `passlint-rule` scheme. The server's "Explain" code actions run the server
// command, which shows the text as a message in other editors; here the client middleware
// points them at this extension's command instead (`explainActions`).

import * as vscode from 'vscode';

export const RULE_SCHEME = 'passlint-rule';
export const SERVER_EXPLAIN = 'passlint.explainRule';
export const SHOW_EXPLANATION = 'passlint.showRuleExplanation';

export type Explain = (code: string) => Promise<string>;

/** The virtual document of one rule: `passlint-rule:/TL001.txt`. */
export function ruleUri(code: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RULE_SCHEME, path: `/${code}.txt` });
}

export function codeOf(uri: vscode.Uri): string {
  return uri.path.replace(/^\//, '').replace(/\.txt$/, '');
}

export class RuleExplanationProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly explain: Explain) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const code = codeOf(uri);
    try {
      return await this.explain(code);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return `passlint could not explain ${code}: ${message}\n`;
    }
  }
}

/** Opens the explanation of ``code`` beside the editor. */
export async function showExplanation(code: unknown): Promise<unknown> {
  if (typeof code !== 'string' || code === '') {
    return undefined;
  }
  const document = await vscode.workspace.openTextDocument(ruleUri(code));
  return vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true });
}

type Action = vscode.Command | vscode.CodeAction;

/** Code actions with the server's explain command pointed at ``SHOW_EXPLANATION``. */
export function explainActions<T extends Action>(actions: T[] | null | undefined): T[] | null | undefined {
  for (const action of actions ?? []) {
    const command = 'command' in action && typeof action.command === 'object' ? action.command : undefined;
    if (command?.command === SERVER_EXPLAIN) {
      command.command = SHOW_EXPLANATION;
      if (command.arguments !== undefined) {
        command.arguments = command.arguments.slice(0, 1); // the code, without server options
      }
    }
  }
  return actions;
}
