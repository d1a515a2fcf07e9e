/**
 * The DB environment's Web Worker (browser only): one task database per worker, answering
 * the requests of service.ts. Loaded by browser.ts with
 * `new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })`.
 *
 * Its first message is the page's compiled sql.js wasm (`{wasm}`; null: load it here), so a
 * worker instantiates it without fetching or compiling; sql.js starts loading then, before
 * any database is asked for (a spare worker is warm when its episode comes).
 */
import initSqlJs from 'sql.js';
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';
import { createDbService, serveChannel, type WireRequest, type WireResponse } from './service.ts';
import { isWasmMessage, sqlWhenGiven, type WasmMessage } from './sqlFromModule.ts';

export type { WasmMessage };

interface WorkerScope {
  postMessage(message: WireResponse): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<WireRequest | WasmMessage>) => void): void;
}

const scope = self as unknown as WorkerScope;
const { give, sql } = sqlWhenGiven(() => initSqlJs({ locateFile: () => wasmUrl }));

serveChannel(
  createDbService(() => sql, { warm: true }),
  (handler) =>
    scope.addEventListener('message', (event) => {
      if (isWasmMessage(event.data)) give(event.data);
      else handler(event.data);
    }),
  (message) => scope.postMessage(message),
);
