// A small stand-in for the `vscode` module: just what the extension's sources touch, with
// every call recorded in `fake` so tests can look at it. register.ts makes `require('vscode')`
// load this file.

/* eslint-disable @typescript-eslint/no-explicit-any */

type Listener<T> = (value: T) => unknown;

export class Disposable {
  constructor(private readonly callback: () => void = () => undefined) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((item) => item.dispose()));
  }
  dispose(): void {
    this.callback();
  }
}

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };
  fire(value: T): void {
    [...this.listeners].forEach((listener) => listener(value));
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
    readonly query: string,
  ) {}
  static file(path: string): Uri {
    return new Uri('file', path, '');
  }
  static from(parts: { scheme: string; path?: string; query?: string }): Uri {
    return new Uri(parts.scheme, parts.path ?? '', parts.query ?? '');
  }
  static parse(text: string): Uri {
    const match = /^([a-zA-Z][\w+.-]*):(?:\/\/[^/]*)?([^?#]*)(?:\?([^#]*))?/.exec(text);
    if (!match) {
      throw new Error(`not a URI: ${text}`);
    }
    return new Uri(match[1] ?? '', match[2] ?? '', match[3] !== undefined ? decodeURIComponent(match[3]) : '');
  }
  get fsPath(): string {
    return this.scheme === 'file' ? this.path : '';
  }
  toString(): string {
    const authority = this.scheme === 'file' ? '//' : '';
    return `${this.scheme}:${authority}${this.path}${this.query ? `?${encodeURIComponent(this.query)}` : ''}`;
  }
}

export class Position {
  constructor(readonly line: number, readonly character: number) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(startLine: number, startCharacter: number, endLine: number, endCharacter: number) {
    this.start = new Position(startLine, startCharacter);
    this.end = new Position(endLine, endCharacter);
  }
}

export class TabInputText {
  constructor(readonly uri: Uri) {}
}

export class RelativePattern {
  constructor(readonly base: Uri, readonly pattern: string) {}
}

export interface FakeTab {
  input: unknown;
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class WorkspaceEdit {
  readonly fake = true;
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export enum LogLevel {
  Off = 0,
  Trace = 1,
  Debug = 2,
  Info = 3,
  Warning = 4,
  Error = 5,
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
}

export interface FakeDocument {
  uri: Uri;
  languageId: string;
  version: number;
  lineCount: number;
  text: string;
}

/** Everything the fake records, and the knobs tests turn. Reset with `reset()`. */
export const fake = {
  settings: {} as Record<string, unknown>,
  commands: new Map<string, (...args: any[]) => unknown>(),
  executed: [] as { command: string; args: unknown[] }[],
  messages: [] as { level: 'error' | 'info' | 'warning'; text: string; items: string[] }[],
  /** What the next message boxes answer (the button a user clicks), in order. */
  answers: [] as (string | undefined)[],
  output: [] as string[],
  statusItems: [] as any[],
  providers: new Map<string, any>(),
  customEditors: new Map<string, { provider: any; options: unknown }>(),
  shown: [] as { document: FakeDocument; options: any }[],
  applied: [] as unknown[],
  extensions: new Map<string, any>(),
  activeTextEditor: undefined as { document: FakeDocument } | undefined,
  textDocuments: [] as FakeDocument[],
  workspaceFolders: undefined as { uri: Uri; name: string; index: number }[] | undefined,
  languageChanges: [] as { uri: string; languageId: string }[],
  /** What `executeCommand` of an unregistered command returns, by command id. */
  commandResults: new Map<string, unknown>(),
  tabs: [] as FakeTab[],
  activeTab: undefined as FakeTab | undefined,
  /** File sizes `workspace.fs.stat` gives, by URI string (missing: it fails). */
  sizes: new Map<string, number>(),
  collections: new Map<string, Map<string, unknown>>(),
  watchers: [] as { pattern: RelativePattern; change: EventEmitter<Uri>; disposed: boolean }[],
  onDidChangeTabs: new EventEmitter<unknown>(),
  onDidOpenTextDocument: new EventEmitter<FakeDocument>(),
  onDidChangeConfiguration: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
  onDidChangeTextDocument: new EventEmitter<{ document: FakeDocument }>(),
  onDidCloseTextDocument: new EventEmitter<FakeDocument>(),
  reset(): void {
    this.settings = {};
    this.commands.clear();
    this.executed = [];
    this.messages = [];
    this.answers = [];
    this.output = [];
    this.statusItems = [];
    this.providers.clear();
    this.customEditors.clear();
    this.shown = [];
    this.applied = [];
    this.extensions.clear();
    this.activeTextEditor = undefined;
    this.textDocuments = [];
    this.workspaceFolders = undefined;
    this.languageChanges = [];
    this.commandResults.clear();
    this.tabs = [];
    this.activeTab = undefined;
    this.sizes.clear();
    this.collections.clear();
    this.watchers = [];
    this.onDidChangeTabs = new EventEmitter();
    this.onDidOpenTextDocument = new EventEmitter();
    this.onDidChangeConfiguration = new EventEmitter();
    this.onDidChangeTextDocument = new EventEmitter();
    this.onDidCloseTextDocument = new EventEmitter();
  },
  /** Changes settings (keys without the `passlint.` prefix) and fires the change event. */
  changeSettings(changes: Record<string, unknown>): void {
    Object.assign(this.settings, changes);
    const keys = Object.keys(changes).map((key) => `passlint.${key}`);
    this.onDidChangeConfiguration.fire({
      affectsConfiguration: (section: string) =>
        keys.some((key) => key === section || key.startsWith(`${section}.`)),
    });
  },
};

function message(level: 'error' | 'info' | 'warning') {
  return (text: string, ...items: string[]): Promise<string | undefined> => {
    fake.messages.push({ level, text, items });
    return Promise.resolve(fake.answers.shift());
  };
}

export const window = {
  get activeTextEditor() {
    return fake.activeTextEditor;
  },
  createOutputChannel(name: string) {
    const log = (level: string) => (text: string) => fake.output.push(`[${level}] ${text}`);
    return {
      name,
      info: log('info'),
      warn: log('warn'),
      error: log('error'),
      debug: log('debug'),
      trace: log('trace'),
      appendLine: log('line'),
      append: log('text'),
      replace: log('replace'),
      clear: () => fake.output.push('[cleared]'),
      hide: () => undefined,
      show: () => fake.output.push('[shown]'),
      dispose: () => undefined,
    };
  },
  createStatusBarItem(id: string, alignment: StatusBarAlignment, priority: number) {
    const item = { id, alignment, priority, text: '', tooltip: '', visible: false, show() { this.visible = true; }, dispose() { this.visible = false; } };
    fake.statusItems.push(item);
    return item;
  },
  tabGroups: {
    get all() {
      return [{ tabs: fake.tabs }];
    },
    get activeTabGroup() {
      return { activeTab: fake.activeTab };
    },
    onDidChangeTabs: (listener: Listener<any>) => fake.onDidChangeTabs.event(listener),
    onDidChangeTabGroups: (listener: Listener<any>) => new EventEmitter<any>().event(listener),
  },
  registerCustomEditorProvider(viewType: string, provider: unknown, options: unknown) {
    fake.customEditors.set(viewType, { provider, options });
    return new Disposable(() => fake.customEditors.delete(viewType));
  },
  showErrorMessage: message('error'),
  showWarningMessage: message('warning'),
  showInformationMessage: message('info'),
  showTextDocument(document: FakeDocument, options: unknown) {
    fake.shown.push({ document, options });
    return Promise.resolve({ document });
  },
};

export const workspace = {
  get workspaceFolders() {
    return fake.workspaceFolders;
  },
  get textDocuments() {
    return fake.textDocuments;
  },
  getConfiguration(section: string) {
    return {
      get<T>(key: string, fallback?: T): T | undefined {
        const value = fake.settings[section === 'passlint' ? key : `${section}.${key}`];
        return (value === undefined ? fallback : value) as T | undefined;
      },
    };
  },
  onDidChangeConfiguration: (listener: Listener<any>) => fake.onDidChangeConfiguration.event(listener),
  onDidOpenTextDocument: (listener: Listener<any>) => fake.onDidOpenTextDocument.event(listener),
  fs: {
    stat(uri: Uri): Promise<{ size: number }> {
      const size = fake.sizes.get(uri.toString());
      return size === undefined ? Promise.reject(new Error('no such file')) : Promise.resolve({ size });
    },
  },
  createFileSystemWatcher(pattern: RelativePattern) {
    const change = new EventEmitter<Uri>();
    const watcher = { pattern, change, disposed: false };
    fake.watchers.push(watcher);
    return {
      onDidChange: change.event,
      onDidCreate: new EventEmitter<Uri>().event,
      dispose: () => {
        watcher.disposed = true;
      },
    };
  },
  onDidChangeTextDocument: (listener: Listener<any>) => fake.onDidChangeTextDocument.event(listener),
  onDidCloseTextDocument: (listener: Listener<any>) => fake.onDidCloseTextDocument.event(listener),
  registerTextDocumentContentProvider(scheme: string, provider: unknown) {
    fake.providers.set(scheme, provider);
    return new Disposable(() => fake.providers.delete(scheme));
  },
  async openTextDocument(uri: Uri): Promise<FakeDocument> {
    const open = fake.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) {
      return open;
    }
    const provider = fake.providers.get(uri.scheme);
    const text: string = provider ? await provider.provideTextDocumentContent(uri) : '';
    const document = { uri, languageId: uri.path.endsWith('.mlir') ? 'mlir' : 'plaintext', version: 1, lineCount: text.split('\n').length, text };
    fake.textDocuments.push(document);
    return document;
  },
  applyEdit(edit: unknown): Promise<boolean> {
    fake.applied.push(edit);
    return Promise.resolve(true);
  },
};

export const commands = {
  registerCommand(id: string, callback: (...args: any[]) => unknown) {
    if (fake.commands.has(id)) {
      throw new Error(`command '${id}' already exists`);
    }
    fake.commands.set(id, callback);
    return new Disposable(() => fake.commands.delete(id));
  },
  async executeCommand(command: string, ...args: unknown[]): Promise<unknown> {
    fake.executed.push({ command, args });
    const registered = fake.commands.get(command);
    return registered ? registered(...args) : fake.commandResults.get(command);
  },
};

export const extensions = {
  getExtension(id: string) {
    return fake.extensions.get(id);
  },
};

export const languages = {
  createDiagnosticCollection(name: string) {
    const entries = new Map<string, unknown>();
    fake.collections.set(name, entries);
    return {
      set: (uri: Uri, diagnostics: unknown) => entries.set(uri.toString(), diagnostics),
      delete: (uri: Uri) => entries.delete(uri.toString()),
      dispose: () => fake.collections.delete(name),
    };
  },
  setTextDocumentLanguage(document: FakeDocument, languageId: string) {
    fake.languageChanges.push({ uri: document.uri.toString(), languageId });
    document.languageId = languageId;
    return Promise.resolve(document);
  },
};
