/**
 * sql.js over a WebAssembly module compiled once elsewhere (the page, or the CLI's main
 * thread) and handed to a worker: the worker instantiates it without reading or compiling
 * the wasm file again. Shared by the browser's worker.ts and Node's node-worker.ts.
 */
import initSqlJs, { type SqlJsStatic } from 'sql.js';

/** What the owner of a DB worker sends before any request (null: the worker loads sql.js itself). */
export interface WasmMessage {
  wasm: WebAssembly.Module | null;
}

export function isWasmMessage(message: unknown): message is WasmMessage {
  return typeof message === 'object' && message !== null && 'wasm' in message;
}

/** sql.js over the given compiled module; rejects if that cannot be instantiated here. */
export function sqlFromModule(module: WebAssembly.Module): Promise<SqlJsStatic> {
  return new Promise((resolve, reject) => {
    initSqlJs({
      // Emscripten's hook: instantiate the module compiled by the owner instead of loading the file.
      instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) {
        WebAssembly.instantiate(module, imports).then(done, reject);
        return {};
      },
    } as Parameters<typeof initSqlJs>[0]).then(resolve, reject);
  });
}

/** sql.js once the owner's first message says how: over its module, or loaded by `loadHere`. */
export function sqlWhenGiven(loadHere: () => Promise<SqlJsStatic>): { give(message: WasmMessage): void; sql: Promise<SqlJsStatic> } {
  let give: (module: WebAssembly.Module | null) => void = () => {};
  const sql = new Promise<WebAssembly.Module | null>((resolve) => (give = resolve)).then((module) =>
    module ? sqlFromModule(module).catch(loadHere) : loadHere(),
  );
  sql.catch(() => {}); // a failure is answered to the request that needs sql.js
  return { give: (message) => give(message.wasm), sql };
}
