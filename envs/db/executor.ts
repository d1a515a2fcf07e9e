/**
 * How the DB environment runs SQL. The environment only sees `SqlExecutor`; where the
 * database lives is a `DbHost` (service.ts): in-process (Node tests, the CLI), a Web Worker
 * (browser.ts) or a Node worker thread (node.ts).
 *
 * GuardedExecutor adds the runaway-query guard: a statement that has not answered within
 * `timeoutMs` (2 s, counted from when it reaches its database: a shared worker may hold it
 * behind another episode's statement) gets its host terminated, a fresh host is opened and the episode's
 * completed statements are replayed into it, and the player is told what happened. A
 * statement whose step is aborted (CANCEL, GIVE_UP) is treated the same way, so the
 * database always matches the recorded steps. An in-process host runs SQL on the calling
 * thread, so its timer cannot fire during a runaway statement: use a worker host where
 * that matters.
 *
 * Choosing the executor: the environment calls the factory set with `setDbExecutorFactory`
 * (none set: in-process sql.js, loaded with a dynamic import). The browser app must set
 * `browserDbExecutorFactory` from `envs/db/browser.ts` before the first episode.
 */
import type { SqlJsStatic } from 'sql.js';
import type { ExecOutcome } from './engine.ts';
import { createDbService, type DbHost, type DbHostFactory, type HostRequest, type HostResponse } from './service.ts';
import type { DbSetup } from './tasks.ts';

export interface SqlExecutor {
  /**
   * Runs one reply's SQL. SQL errors come back as the outcome's text (never a rejection);
   * rejects only when `signal` aborts (with an AbortError) or the executor was closed.
   */
  exec(sql: string, signal?: AbortSignal): Promise<ExecOutcome>;
  /** The task table's check hash now (`[('<md5>',)]`, as upstream's md5 query prints it). */
  hash(): Promise<string>;
  /** The statements that completed, in order (what a restart replays). */
  readonly statements: readonly string[];
  /** How many times the host was re-created after a runaway or failed statement. */
  readonly restarts: number;
  close(): void;
}

export type ExecutorFactory = (setup: DbSetup) => Promise<SqlExecutor>;

export interface GuardOptions {
  /** A statement not answered within this many ms is stopped (default 2000). */
  timeoutMs?: number;
  /** Limit for opening a database (loading sql.js in a new worker; default 30000). */
  openTimeoutMs?: number;
  /** Limit for each replayed statement when rebuilding (default 10000). */
  replayTimeoutMs?: number;
}

export const DB_TIMEOUT_MS = 2000;

type Raced<T> = { kind: 'done'; value: T } | { kind: 'timeout' } | { kind: 'aborted' } | { kind: 'failed'; error: string };

/**
 * Waits for `promise`, a timer or an abort, whichever comes first; cleans up after itself.
 * The timer starts when `started` resolves (now if none is given).
 */
function race<T>(promise: Promise<T>, ms: number, signal?: AbortSignal, started?: Promise<void>): Promise<Raced<T>> {
  return new Promise((resolve) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (r: Raced<T>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(r);
    };
    const onAbort = () => finish({ kind: 'aborted' });
    const startTimer = () => {
      if (!settled) timer = setTimeout(() => finish({ kind: 'timeout' }), ms);
    };
    if (started) void started.then(startTimer);
    else startTimer();
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => finish({ kind: 'done', value }),
      (err: unknown) => finish({ kind: 'failed', error: err instanceof Error ? err.message : String(err) }),
    );
  });
}

function abortError(): Error {
  return new DOMException('The step was cancelled.', 'AbortError');
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${s} second${s === 1 ? '' : 's'}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function outcomeFromError(text: string): ExecOutcome {
  return { text, ok: false, columns: [], rows: [], rowsRead: 0, complete: false };
}

export class GuardedExecutor implements SqlExecutor {
  private host: DbHost;
  private readonly log: string[] = [];
  private rebuilding: Promise<void> = Promise.resolve();
  private broken: string | null = null;
  private closed = false;
  private restartCount = 0;
  /** The table's hash as the last open returned it, while no statement has run since (a reset then asks no second time). */
  private openHash: string | null = null;
  private readonly timeoutMs: number;
  private readonly openTimeoutMs: number;
  private readonly replayTimeoutMs: number;

  private constructor(
    private readonly makeHost: DbHostFactory,
    private readonly setup: DbSetup,
    options: GuardOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? DB_TIMEOUT_MS;
    this.openTimeoutMs = options.openTimeoutMs ?? 30000;
    this.replayTimeoutMs = options.replayTimeoutMs ?? 10000;
    this.host = makeHost();
  }

  /** Opens the task's database in a new host; rejects when it cannot be created. */
  static async open(makeHost: DbHostFactory, setup: DbSetup, options: GuardOptions = {}): Promise<GuardedExecutor> {
    const executor = new GuardedExecutor(makeHost, setup, options);
    const error = await executor.openHost(executor.host);
    if (error !== null) {
      executor.host.terminate();
      throw new Error(error);
    }
    return executor;
  }

  get statements(): readonly string[] {
    return this.log;
  }

  get restarts(): number {
    return this.restartCount;
  }

  /** One request to `host` within `ms` (counted from when it reaches its database, for a host that queues). */
  private ask(host: DbHost, req: HostRequest, ms: number, signal?: AbortSignal): Promise<Raced<HostResponse>> {
    if (!host.queues) return race(host.request(req), ms, signal);
    let dispatched: () => void = () => {};
    const started = new Promise<void>((resolve) => (dispatched = resolve));
    return race(host.request(req, dispatched), ms, signal, started);
  }

  /** Opens the database in `host`; the error text, or null. */
  private async openHost(host: DbHost): Promise<string | null> {
    const r = await this.ask(host, { op: 'open', setup: this.setup }, this.openTimeoutMs);
    if (r.kind === 'done' && r.value.ok) this.openHash = this.log.length === 0 ? (r.value.hash ?? null) : null;
    if (r.kind === 'done') return r.value.ok ? null : `the database could not be created: ${r.value.error}`;
    if (r.kind === 'failed') return `the database could not be created: ${r.error}`;
    return `the database was not ready after ${seconds(this.openTimeoutMs)}`;
  }

  /** Kills the host, opens a new one and replays the completed statements; sets `broken` if that fails. */
  private rebuild(): Promise<void> {
    this.host.terminate();
    this.restartCount++;
    this.rebuilding = (async () => {
      if (this.closed) return;
      const host = this.makeHost();
      this.host = host;
      const error = await this.openHost(host);
      if (error !== null) {
        this.broken = error;
        return;
      }
      for (const sql of this.log) {
        if (this.closed) return;
        const r = await this.ask(host, { op: 'exec', sql }, this.replayTimeoutMs);
        if (r.kind !== 'done' || !r.value.ok) {
          this.broken = `replaying the earlier statement "${sql}" failed`;
          host.terminate();
          return;
        }
      }
      if (this.closed) host.terminate();
    })();
    return this.rebuilding;
  }

  private brokenOutcome(): ExecOutcome {
    return outcomeFromError(`The database is unavailable: ${this.broken}. No statement can run in this episode any more.`);
  }

  async exec(sql: string, signal?: AbortSignal): Promise<ExecOutcome> {
    if (this.closed) throw new Error('the database was closed');
    if (signal?.aborted) throw abortError();
    await this.rebuilding;
    if (this.broken) return this.brokenOutcome();
    this.openHash = null;
    const r = await this.ask(this.host, { op: 'exec', sql }, this.timeoutMs, signal);
    if (r.kind === 'done' && r.value.ok && r.value.outcome && !signal?.aborted) {
      this.log.push(sql);
      return r.value.outcome;
    }
    if (r.kind === 'aborted' || signal?.aborted) {
      // The step is cancelled: drop whatever the statement did, in the background.
      void this.rebuild();
      throw abortError();
    }
    const earlier = this.log.length;
    await this.rebuild();
    if (this.broken) return this.brokenOutcome();
    const restored = `The database was rebuilt by replaying the ${plural(earlier, 'earlier statement')} of this episode; the stopped statement had no effect.`;
    let text: string;
    if (r.kind === 'timeout') {
      text = `Query stopped: it ran for more than ${seconds(this.timeoutMs)}. ${restored}`;
    } else {
      const why = r.kind === 'failed' ? r.error : (r.value as Extract<HostResponse, { ok: false }>).error ?? 'no result';
      text = `Query stopped: the database failed while running it (${why}). ${restored}`;
    }
    const outcome: ExecOutcome = { ...outcomeFromError(text), timedOut: r.kind === 'timeout' };
    if (this.setup.hash) outcome.hash = await this.hash();
    return outcome;
  }

  async hash(): Promise<string> {
    if (this.closed) throw new Error('the database was closed');
    await this.rebuilding;
    if (this.broken) return `The database is unavailable: ${this.broken}`;
    if (this.openHash !== null) return this.openHash;
    const r = await this.ask(this.host, { op: 'hash' }, this.replayTimeoutMs);
    if (r.kind === 'done' && r.value.ok && r.value.hash !== undefined) return r.value.hash;
    return 'the table hash could not be computed';
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    // A host in the middle of a rebuild is ended; an idle one may be kept for the next episode.
    if (this.host.release && !this.broken) this.host.release();
    else this.host.terminate();
  }
}

/** A host that runs the database on the calling thread (no protection against runaway statements). */
export function inProcessHost(loadSql: () => Promise<SqlJsStatic>): DbHost {
  const serve = createDbService(loadSql);
  let dead = false;
  return {
    request(req) {
      if (dead) return Promise.reject(new Error('the database was stopped'));
      return serve(req);
    },
    terminate() {
      if (dead) return;
      dead = true;
      void serve({ op: 'close' });
    },
  };
}

let sqlJs: Promise<SqlJsStatic> | null = null;

/** sql.js for in-process use in Node (it finds its wasm file itself); loaded once. */
export function loadNodeSqlJs(): Promise<SqlJsStatic> {
  if (typeof document !== 'undefined') {
    return Promise.reject(
      new Error('In the browser the DB environment needs a worker: call setDbExecutorFactory(browserDbExecutorFactory) from envs/db/browser.ts.'),
    );
  }
  sqlJs ??= import('sql.js').then((m) => m.default());
  return sqlJs;
}

/** Executors whose hosts come from `makeHost`, guarded by the timeout/rebuild logic. */
export function hostExecutorFactory(makeHost: DbHostFactory, options: GuardOptions = {}): ExecutorFactory {
  return (setup) => GuardedExecutor.open(makeHost, setup, options);
}

/** In-process sql.js (the default in Node). */
export const inProcessExecutorFactory: ExecutorFactory = hostExecutorFactory(() => inProcessHost(loadNodeSqlJs));

let current: ExecutorFactory | null = null;

/** Sets how the DB environment creates its database for each episode (null: back to the in-process default). */
export function setDbExecutorFactory(factory: ExecutorFactory | null): void {
  current = factory;
}

/** The factory in use. */
export function dbExecutorFactory(): ExecutorFactory {
  return current ?? inProcessExecutorFactory;
}
