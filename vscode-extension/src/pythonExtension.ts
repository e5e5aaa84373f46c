// The Python extension's active interpreter, through its public API, when it is installed.

import * as vscode from 'vscode';

export const PYTHON_EXTENSION_ID = 'ms-python.python';

interface EnvironmentPath {
  readonly id: string;
  readonly path: string;
}

/** The part of the Python extension's API that passlint reads. */
export interface PythonExtensionApi {
  readonly environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): EnvironmentPath;
    resolveEnvironment(environment: EnvironmentPath | string): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
    readonly onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
  };
  readonly settings?: {
    getExecutionDetails(resource?: vscode.Uri): { execCommand: string[] | undefined };
  };
}

async function api(): Promise<PythonExtensionApi | undefined> {
  const extension = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION_ID);
  if (extension === undefined) {
    return undefined;
  }
  return extension.isActive ? extension.exports : await extension.activate();
}

/** The active interpreter's command for ``resource``, or undefined (no extension, none chosen). */
export async function pythonExtensionInterpreter(resource?: vscode.Uri): Promise<string[] | undefined> {
  const python = await api();
  if (python === undefined) {
    return undefined;
  }
  if (python.environments !== undefined) {
    const active = python.environments.getActiveEnvironmentPath(resource);
    const resolved = await python.environments.resolveEnvironment(active);
    const executable = resolved?.executable.uri?.fsPath;
    if (executable) {
      return [executable];
    }
  }
  const command = python.settings?.getExecutionDetails(resource).execCommand;
  return command !== undefined && command.length > 0 ? command : undefined;
}

/** Calls ``listener`` when the user picks another interpreter in the Python extension. */
export async function onDidChangePythonInterpreter(listener: () => void): Promise<vscode.Disposable | undefined> {
  try {
    const python = await api();
    return python?.environments?.onDidChangeActiveEnvironmentPath?.(() => listener());
  } catch {
    return undefined;
  }
}
