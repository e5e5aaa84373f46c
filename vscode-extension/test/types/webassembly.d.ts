// vscode-oniguruma's typings name the WebAssembly namespace, which lib "DOM" declares; the
// tests run on Node and only need the two names to exist.
declare namespace WebAssembly {
  type ImportValue = unknown;
  interface WebAssemblyInstantiatedSource {
    instance: unknown;
    module: unknown;
  }
}
