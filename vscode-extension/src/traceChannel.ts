// The protocol trace channel. vscode-languageclient traces only while its trace channel's log
// level is Trace (then `passlint.trace.server` picks the verbosity), and VS Code offers no API
// to set a log channel's level. So `passlint.trace.server` drives this channel's level:
// `off` reads as Info (no trace), `messages` / `verbose` as Trace.

import * as vscode from 'vscode';

export function traceSetting(): string {
  return vscode.workspace.getConfiguration('passlint').get<string>('trace.server', 'off') ?? 'off';
}

export class TraceChannel implements vscode.LogOutputChannel {
  private readonly channel: vscode.OutputChannel;
  private readonly levelChanged = new vscode.EventEmitter<vscode.LogLevel>();
  readonly onDidChangeLogLevel = this.levelChanged.event;
  private level: vscode.LogLevel;
  private readonly subscription: vscode.Disposable;

  constructor(name: string) {
    this.channel = vscode.window.createOutputChannel(name);
    this.level = TraceChannel.levelFor(traceSetting());
    this.subscription = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('passlint.trace.server')) {
        const level = TraceChannel.levelFor(traceSetting());
        if (level !== this.level) {
          this.level = level;
          this.levelChanged.fire(level);
        }
      }
    });
  }

  static levelFor(setting: string): vscode.LogLevel {
    return setting === 'messages' || setting === 'verbose' ? vscode.LogLevel.Trace : vscode.LogLevel.Info;
  }

  get logLevel(): vscode.LogLevel {
    return this.level;
  }

  get name(): string {
    return this.channel.name;
  }

  private line(level: string, message: string | Error, args: unknown[]): void {
    const text = message instanceof Error ? (message.stack ?? message.message) : message;
    const rest = args.length > 0 ? ` ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}` : '';
    this.channel.appendLine(`${new Date().toISOString()} [${level}] ${text}${rest}`);
  }

  trace(message: string, ...args: unknown[]): void {
    if (this.level <= vscode.LogLevel.Trace) {
      this.line('trace', message, args);
    }
  }
  debug(message: string, ...args: unknown[]): void {
    if (this.level <= vscode.LogLevel.Debug) {
      this.line('debug', message, args);
    }
  }
  info(message: string, ...args: unknown[]): void {
    this.line('info', message, args);
  }
  warn(message: string, ...args: unknown[]): void {
    this.line('warning', message, args);
  }
  error(error: string | Error, ...args: unknown[]): void {
    this.line('error', error, args);
  }
  append(value: string): void {
    this.channel.append(value);
  }
  appendLine(value: string): void {
    this.channel.appendLine(value);
  }
  replace(value: string): void {
    this.channel.replace(value);
  }
  clear(): void {
    this.channel.clear();
  }
  show(columnOrPreserveFocus?: vscode.ViewColumn | boolean, preserveFocus?: boolean): void {
    if (typeof columnOrPreserveFocus === 'boolean' || columnOrPreserveFocus === undefined) {
      this.channel.show(columnOrPreserveFocus);
    } else {
      this.channel.show(columnOrPreserveFocus, preserveFocus);
    }
  }
  hide(): void {
    this.channel.hide();
  }
  dispose(): void {
    this.subscription.dispose();
    this.levelChanged.dispose();
    this.channel.dispose();
  }
}
