/**
 * The browser's shared DB workers (envs/db/sharedWorkers.ts): episodes open at once share a warm
 * worker, each with its own database; an episode's time limit counts from when its statement
 * reaches the worker; when one episode's statement runs away and its worker is ended, the
 * other episodes in it go on unaware, their databases rebuilt elsewhere. Tested over in-process
 * channels (statements that sleep or never answer) and over the CLI's Node worker threads running
 * the service with an unbounded recursive query.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hostExecutorFactory, loadNodeSqlJs, type ExecutorFactory } from '../../envs/db/executor.ts';
import { createDbService, type WireRequest, type WireResponse, type WorkerChannel } from '../../envs/db/service.ts';
import { SharedDbWorkers, type SharedWorkersOptions } from '../../envs/db/sharedWorkers.ts';
import { DB_ROWS, setupFor } from '../../envs/db/tasks.ts';
import { nodeWorkerChannel } from '../../envs/db/node.ts';
import { RUNAWAY_SQL } from '../../envs/db/runaway.ts';
import { sleep } from './helpers.ts';

const ROW = DB_ROWS[41]; // Actress Filmography, an UPDATE task (hash after every statement)
const SETUP = setupFor(ROW);
const TABLE = '`Actress Filmography`';
const COUNT = `SELECT COUNT(*) FROM ${TABLE}`;

/** Worker channels served in-process: a statement with HANG never answers, one with SLOW answers after 300 ms. */
function inProcessWorkers() {
  const made: { terminated: boolean }[] = [];
  const start = (): WorkerChannel => {
    const serve = createDbService(loadNodeSqlJs);
    const record = { terminated: false };
    made.push(record);
    let listener: (message: WireResponse) => void = () => {};
    return {
      post(message: WireRequest) {
        void (async () => {
          if (message.req.op === 'exec' && message.req.sql.includes('HANG')) return;
          if (message.req.op === 'exec' && message.req.sql.includes('SLOW')) await sleep(300);
          const res = await serve(message.req, message.db);
          if (!record.terminated) listener({ id: message.id, res });
        })();
      },
      onMessage: (l) => (listener = l),
      onError: () => {},
      terminate: () => (record.terminated = true),
    };
  };
  return { start, made };
}

let pool: SharedDbWorkers | null = null;
afterEach(() => pool?.clear());

function executors(options: SharedWorkersOptions, timeoutMs?: number): ExecutorFactory {
  const shared = new SharedDbWorkers(options);
  pool = shared;
  return hostExecutorFactory(() => shared.host(), timeoutMs === undefined ? {} : { timeoutMs });
}

describe('shared DB workers', { timeout: 60000 }, () => {
  it('opens episodes in one warm worker, each with its own database', async () => {
    const fake = inProcessWorkers();
    const open = executors({ start: fake.start, maxWorkers: 1 });
    const a = await open(SETUP);
    const b = await open(SETUP);
    const fresh = await b.hash();
    expect(pool!.started).toBe(1);
    expect(pool!.loads()).toEqual([2]);
    await a.exec(`DELETE FROM ${TABLE}`);
    expect((await a.exec(COUNT)).text).toBe('[(0,)]');
    expect((await b.exec(COUNT)).text).not.toBe('[(0,)]');
    expect(await b.hash()).toBe(fresh);
    a.close();
    expect(pool!.loads()).toEqual([1]);
    // The next episode takes the live worker: no new start, a fresh database.
    const c = await open(SETUP);
    expect(pool!.started).toBe(1);
    expect(await c.hash()).toBe(fresh);
    b.close();
    c.close();
  });

  it('prefers an idle warm worker, and starts a spare behind a shared one', async () => {
    const fake = inProcessWorkers();
    const open = executors({ start: fake.start, maxWorkers: 2 });
    const a = await open(SETUP);
    // Once the first worker answered, a spare is started and becomes ready.
    for (let i = 0; i < 100 && pool!.loads().length < 2; i++) await sleep(10);
    await sleep(50);
    expect(pool!.loads()).toEqual([1, 0]);
    const b = await open(SETUP);
    expect(pool!.loads()).toEqual([1, 1]);
    a.close();
    b.close();
  });

  it("counts a statement's time limit from when it reaches the worker, not while it waits behind another episode's", async () => {
    const fake = inProcessWorkers();
    const shared = new SharedDbWorkers({ start: fake.start, maxWorkers: 1 });
    pool = shared;
    const slow = await hostExecutorFactory(() => shared.host(), { timeoutMs: 1000 })(SETUP);
    const quick = await hostExecutorFactory(() => shared.host(), { timeoutMs: 150 })(SETUP);
    const first = slow.exec("SELECT 'SLOW'");
    const second = await quick.exec('SELECT 40 + 2'); // waits about 300 ms behind the slow one
    expect(second.timedOut).toBeUndefined();
    expect(second.text).toBe('[(42,)]');
    expect((await first).text).toBe("[('SLOW',)]");
    expect(quick.restarts).toBe(0);
    slow.close();
    quick.close();
  });

  it("moves the other episodes of a worker ended by one episode's runaway statement, unseen by them", async () => {
    const fake = inProcessWorkers();
    const open = executors({ start: fake.start, maxWorkers: 1 }, 200);
    const runaway = await open(SETUP);
    const other = await open(SETUP);
    await other.exec(ROW.label[0]);
    await other.exec(`INSERT INTO ${TABLE} (Title) VALUES ('kept')`);
    const hashBefore = await other.hash();
    const countBefore = (await other.exec(COUNT)).text;
    const waiting = other.exec("SELECT Title FROM " + TABLE + " WHERE Title = 'kept'"); // queued behind the runaway

    const out = await runaway.exec('SELECT 1 -- HANG');
    expect(out.timedOut).toBe(true);
    expect(out.text).toMatch(/^Query stopped: it ran for more than 0.2 seconds\./);
    expect(fake.made[0].terminated).toBe(true);

    expect((await waiting).text).toBe("[('kept',)]");
    expect((await other.exec(COUNT)).text).toBe(countBefore);
    expect(await other.hash()).toBe(hashBefore);
    expect(other.restarts).toBe(0);
    expect(other.statements).toHaveLength(5);
    expect(runaway.restarts).toBe(1);
    runaway.close();
    other.close();
  });

  it('a cancelled statement still waiting for the worker is dropped without ending the worker', async () => {
    const fake = inProcessWorkers();
    const open = executors({ start: fake.start, maxWorkers: 1 });
    const busy = await open(SETUP);
    const cancelled = await open(SETUP);
    const first = busy.exec("SELECT 'SLOW'");
    const abort = new AbortController();
    const step = cancelled.exec(`DELETE FROM ${TABLE}`, abort.signal);
    abort.abort();
    await expect(step).rejects.toThrow(/cancelled/);
    expect((await first).text).toBe("[('SLOW',)]");
    expect(fake.made[0].terminated).toBe(false);
    expect((await cancelled.exec(COUNT)).text).not.toBe('[(0,)]');
    busy.close();
    cancelled.close();
  });

  it('over real worker threads: a runaway recursive query is stopped and the episode sharing its worker keeps its table', async () => {
    const open = executors({ start: () => nodeWorkerChannel(), maxWorkers: 1 }, 500);
    const runaway = await open(SETUP);
    const other = await open(SETUP);
    expect(pool!.loads()).toEqual([2]);
    await other.exec(ROW.label[0]);
    const hash = await other.hash();
    expect(hash).toBe(ROW.answer_md5);
    const out = await runaway.exec(RUNAWAY_SQL);
    expect(out.timedOut).toBe(true);
    expect(pool!.started).toBe(2);
    expect(await other.hash()).toBe(ROW.answer_md5);
    expect((await other.exec('SELECT 40 + 2')).text).toBe('[(42,)]');
    expect(other.restarts).toBe(0);
    expect((await runaway.exec('SELECT 40 + 2')).text).toBe('[(42,)]');
    runaway.close();
    other.close();
  });
});
