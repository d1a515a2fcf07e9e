/**
 * The request protocol between an executor and the place its database lives (same thread,
 * Web Worker or Node worker thread), with no platform imports: the request handler that
 * owns a worker's databases (one DbEngine each, by number), and a DbHost over any message channel.
 */
import type { SqlJsStatic } from 'sql.js';
import { DbEngine, type ExecOutcome } from './engine.ts';
import type { DbSetup } from './tasks.ts';

/** `ready` answers once sql.js is loaded (a pool's sign that a worker is warm); the others act on one database. */
export type HostRequest = { op: 'open'; setup: DbSetup } | { op: 'exec'; sql: string } | { op: 'hash' } | { op: 'close' } | { op: 'ready' };

export type HostResponse = { ok: true; outcome?: ExecOutcome; hash?: string } | { ok: false; error: string };

/** Where one task database lives. Requests are answered in order; `terminate` kills it at once (a busy worker too). */
export interface DbHost {
  /**
   * With `queues`, a request may wait behind other databases' requests in the same worker, and
   * the host calls `dispatched` when it reaches its database (time limits count from then).
   */
  request(req: HostRequest, dispatched?: () => void): Promise<HostResponse>;
  readonly queues?: boolean;
  terminate(): void;
  /**
   * Done with this database (the episode ended): the host may close it and keep its worker for
   * another episode, which opens a fresh database there. Hosts without it are terminated.
   */
  release?(): void;
}

export type DbHostFactory = () => DbHost;

/** A small table and a few statements of the kinds tasks use, for the warm-up below. */
const WARM_SETUP: DbSetup = {
  table: 'warm_up',
  columns: ['Name', 'Floors', 'Year'],
  rows: [['Alpha', '10', '1990'], ['Beta', '20', '2001'], ['Gamma', null, '1985']],
  hash: true,
};
const WARM_SQL = [
  "SELECT Floors FROM warm_up WHERE Name = 'Alpha'",
  'SELECT COUNT(*), MAX(Year) FROM warm_up GROUP BY Floors ORDER BY Floors',
  "UPDATE warm_up SET Floors = 11 WHERE Name = 'Alpha'",
  "INSERT INTO warm_up (Name, Floors, Year) VALUES ('Delta', '5', '2020')",
  'SELECT * FROM no_such_table',
];

/**
 * Plays a few throwaway episodes on a database of its own, so the engine's code is compiled
 * before a real episode opens: a spare worker waits idle for its episode, and its first reset
 * otherwise ran on code never run before (most of a warm worker's reset). One statement per
 * task, and it stops as soon as a request has come (`stop`), so a request waits for one
 * statement at most. Leaves nothing behind.
 */
function warmUp(SQL: SqlJsStatic, stop: () => boolean): void {
  const work: ((engine: DbEngine | null) => DbEngine | null)[] = [];
  for (let round = 0; round < 3; round++) {
    work.push(() => new DbEngine(SQL, WARM_SETUP));
    for (const sql of WARM_SQL) work.push((e) => (e?.exec(sql), e));
    work.push((e) => (e?.hash(), e));
    work.push((e) => (e?.close(), null));
  }
  let engine: DbEngine | null = null;
  let at = 0;
  const next = (): void => {
    try {
      if (stop() || at === work.length) {
        engine?.close();
        return;
      }
      engine = work[at++](engine);
    } catch {
      // Only a warm-up: the first real request meets any failure and answers it.
      engine?.close();
      return;
    }
    setTimeout(next, 0);
  };
  setTimeout(next, 0);
}

/**
 * The handler that owns a worker's databases (or the in-process one): each request acts on the
 * database numbered `db` (one per episode; a worker shared by several episodes holds several).
 * With `warm`, it warms the engine up once sql.js is ready if no request has come by then
 * (worker hosts; a `ready` request does not count).
 */
export function createDbService(loadSql: () => Promise<SqlJsStatic>, options: { warm?: boolean } = {}): (req: HostRequest, db?: number) => Promise<HostResponse> {
  const engines = new Map<number, DbEngine>();
  let requests = 0;
  if (options.warm) {
    loadSql().then(
      (SQL) => warmUp(SQL, () => requests > 0),
      () => {},
    );
  }
  return async (req, db = 0) => {
    if (req.op !== 'ready') requests++;
    const engine = engines.get(db);
    try {
      switch (req.op) {
        case 'ready':
          await loadSql();
          return { ok: true };
        case 'open': {
          const SQL = await loadSql();
          engine?.close();
          engines.delete(db);
          const opened = new DbEngine(SQL, req.setup);
          engines.set(db, opened);
          return { ok: true, hash: opened.hash() };
        }
        case 'exec':
          if (!engine) return { ok: false, error: 'no database is open' };
          return { ok: true, outcome: engine.exec(req.sql) };
        case 'hash':
          if (!engine) return { ok: false, error: 'no database is open' };
          return { ok: true, hash: engine.hash() };
        case 'close':
          engine?.close();
          engines.delete(db);
          return { ok: true };
      }
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  };
}

export interface WireRequest {
  id: number;
  req: HostRequest;
  /** Which of the worker's databases (absent: the only one). */
  db?: number;
}

export interface WireResponse {
  id: number;
  res: HostResponse;
}

/** The two ends of a worker, whatever the platform. */
export interface WorkerChannel {
  post(message: WireRequest): void;
  onMessage(listener: (message: WireResponse) => void): void;
  /** A failure of the worker itself (script failed to load, crash). */
  onError(listener: (message: string) => void): void;
  terminate(): void;
}

/** A DbHost over a worker channel: numbered requests, answers matched by id; a dead worker rejects what is pending. */
export function channelHost(channel: WorkerChannel): DbHost {
  let next = 1;
  let dead: string | null = null;
  const pending = new Map<number, { resolve: (res: HostResponse) => void; reject: (err: Error) => void }>();
  const failAll = (why: string) => {
    dead ??= why;
    for (const p of pending.values()) p.reject(new Error(why));
    pending.clear();
  };
  channel.onMessage((message) => {
    const p = pending.get(message.id);
    if (!p) return;
    pending.delete(message.id);
    p.resolve(message.res);
  });
  channel.onError((why) => failAll(`the database worker failed: ${why}`));
  return {
    request(req) {
      if (dead) return Promise.reject(new Error(dead));
      const id = next++;
      return new Promise<HostResponse>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        try {
          channel.post({ id, req });
        } catch (err) {
          pending.delete(id);
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
    },
    terminate() {
      channel.terminate();
      failAll('the database worker was stopped');
    },
  };
}

/** The message loop of a worker: answers each request with the service, in order. */
export function serveChannel(
  service: (req: HostRequest, db?: number) => Promise<HostResponse>,
  listen: (handler: (message: WireRequest) => void) => void,
  reply: (message: WireResponse) => void,
): void {
  let chain: Promise<void> = Promise.resolve();
  listen((message) => {
    chain = chain.then(async () => reply({ id: message.id, res: await service(message.req, message.db) }));
  });
}
