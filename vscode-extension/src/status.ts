// The status bar item: the server's state at a glance; a click shows the output channel.

import * as vscode from 'vscode';

export type ServerState = 'starting' | 'running' | 'stopped' | 'disabled' | 'noInterpreter' | 'failed';

const LOOK: Record<ServerState, { icon: string; label: string; warn: boolean }> = {
  starting: { icon: '$(sync~spin)', label: 'starting', warn: false },
  running: { icon: '$(check)', label: 'running', warn: false },
  stopped: { icon: '$(circle-slash)', label: 'stopped', warn: false },
  disabled: { icon: '$(circle-slash)', label: 'disabled (passlint.enable is off)', warn: false },
  noInterpreter: { icon: '$(warning)', label: 'no Python 3.11+ interpreter', warn: true },
  failed: { icon: '$(error)', label: 'server failed', warn: true },
};

export class StatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  state: ServerState = 'stopped';
  private detail: string | undefined;
  /** What the status bar says of the active file besides the server's state. */
  note: string | undefined;

  constructor(showOutputCommand: string) {
    this.item = vscode.window.createStatusBarItem('passlint.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'passlint';
    this.item.command = showOutputCommand;
    this.set('stopped');
    this.item.show();
  }

  set(state: ServerState, detail?: string): void {
    this.state = state;
    this.detail = detail;
    this.draw();
  }

  /** Say ``note`` of the active file (a file read from disk), or nothing more. */
  setNote(note: string | undefined): void {
    this.note = note;
    this.draw();
  }

  private draw(): void {
    const look = LOOK[this.state];
    this.item.text = `${look.icon} passlint${this.note ? ' (read from disk)' : ''}`;
    this.item.tooltip =
      `passlint server: ${look.label}${this.detail ? `\n${this.detail}` : ''}` +
      `${this.note ? `\n${this.note}` : ''}\nClick to show the output.`;
    this.item.backgroundColor = look.warn ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.item.dispose();
  }
}
