/**
 * The DB database in a Node worker thread (see node.ts): the same service as the browser's
 * Web Worker, over worker_threads messages. Its first message is sql.js's wasm compiled once
 * by the main thread (null: load it here).
 */
import { parentPort } from 'node:worker_threads';
import { loadNodeSqlJs } from './executor.ts';
import { createDbService, serveChannel, type WireRequest, type WireResponse } from './service.ts';
import { isWasmMessage, sqlWhenGiven, type WasmMessage } from './sqlFromModule.ts';

const port = parentPort;
if (!port) throw new Error('node-worker.ts must run in a worker thread');
const { give, sql } = sqlWhenGiven(loadNodeSqlJs);
serveChannel(
  createDbService(() => sql, { warm: true }),
  (handler) =>
    port.on('message', (message: WireRequest | WasmMessage) => {
      if (isWasmMessage(message)) give(message);
      else handler(message);
    }),
  (message: WireResponse) => port.postMessage(message),
);
