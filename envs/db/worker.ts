/**
 * The DB environment's Web Worker (browser only): one task database per worker, answering
 * the requests of service.ts. Loaded by browser.ts with
 * `new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })`.
 *
 * Its first message is the page's compiled sql.js wasm (`{wasm}`; null: load it here), so a
 * worker instantiates it without fetching or compiling; sql.js starts loading then, before
 * any database is asked for (a spare worker is warm when its episode comes).
 */
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';
import { createDbService, serveChannel, type WireRequest, type WireResponse } from './service.ts';

/** What browser.ts sends before any request. */
export interface WasmMessage {
  wasm: WebAssembly.Module | null;
}

interface WorkerScope {
  postMessage(message: WireResponse): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<WireRequest | WasmMessage>) => void): void;
}

const scope = self as unknown as WorkerScope;

let given: (module: WebAssembly.Module | null) => void = () => {};

/** sql.js over the page's compiled module; rejects if that cannot be instantiated here. */
function fromModule(module: WebAssembly.Module): Promise<SqlJsStatic> {
  return new Promise((resolve, reject) => {
    initSqlJs({
      // Emscripten's hook: instantiate the module compiled by the page instead of fetching the file.
      instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) {
        WebAssembly.instantiate(module, imports).then(done, reject);
        return {};
      },
    } as Parameters<typeof initSqlJs>[0]).then(resolve, reject);
  });
}

const loadHere = () => initSqlJs({ locateFile: () => wasmUrl });
const sql: Promise<SqlJsStatic> = new Promise<WebAssembly.Module | null>((resolve) => (given = resolve)).then((module) =>
  module ? fromModule(module).catch(loadHere) : loadHere(),
);
sql.catch(() => {}); // a failure is answered to the request that needs sql.js

serveChannel(
  createDbService(() => sql),
  (handler) =>
    scope.addEventListener('message', (event) => {
      if ('wasm' in event.data) given(event.data.wasm);
      else handler(event.data);
    }),
  (message) => scope.postMessage(message),
);
