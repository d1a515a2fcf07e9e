/**
 * The runaway-statement guard: a statement that does not answer in time gets its host
 * terminated, a new host is opened, the episode's completed statements are replayed, and
 * the player is told. Tested with fake hosts (that never answer, crash or cannot open) and
 * with a real Node worker thread running an unbounded recursive query.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GuardedExecutor, inProcessHost, loadNodeSqlJs, setDbExecutorFactory } from '../../envs/db/executor.ts';
import { createDbService, type DbHost, type HostRequest } from '../../envs/db/service.ts';
import { DB_ROWS, setupFor } from '../../envs/db/tasks.ts';
import { nodeWorkerExecutorFactory, nodeWorkerHost } from '../../envs/db/node.ts';
import { db, type DbState } from '../../envs/db/index.ts';
import { operationReply } from '../../envs/db/protocol.ts';
import { playEpisode, sleep, task } from './helpers.ts';

afterEach(() => setDbExecutorFactory(null));

/** In-process hosts that never answer statements containing HANG (or reject those containing CRASH), with a log. */
function fakeHosts(options: { failOpenAfter?: number } = {}) {
  const created: { requests: HostRequest[]; terminated: boolean }[] = [];
  const make = (): DbHost => {
    const inner = inProcessHost(loadNodeSqlJs);
    const record = { requests: [] as HostRequest[], terminated: false };
    const index = created.length;
    created.push(record);
    return {
      request(req) {
        record.requests.push(req);
        if (req.op === 'open' && options.failOpenAfter !== undefined && index >= options.failOpenAfter) {
          return Promise.resolve({ ok: false, error: 'no memory' });
        }
        if (req.op === 'exec' && req.sql.includes('HANG')) return new Promise(() => {});
        if (req.op === 'exec' && req.sql.includes('CRASH')) return Promise.reject(new Error('worker crashed'));
        return inner.request(req);
      },
      terminate() {
        record.terminated = true;
        inner.terminate();
      },
    };
  };
  return { make, created };
}

const SETUP = setupFor(DB_ROWS[41]); // Actress Filmography, an UPDATE task (hash after every statement)
const TABLE = '`Actress Filmography`';

describe('db runaway-statement guard', () => {
  it('stops a statement that does not answer, rebuilds the database by replaying, and says so', async () => {
    const hosts = fakeHosts();
    const ex = await GuardedExecutor.open(hosts.make, SETUP, { timeoutMs: 100 });
    const insert = `INSERT INTO ${TABLE} (Title) VALUES ('kept')`;
    await ex.exec(insert);
    const error = await ex.exec('SELECT nope');
    expect(error.text).toBe("1054 (42S22): Unknown column 'nope' in 'field list'");
    const before = await ex.hash();

    const started = performance.now();
    const out = await ex.exec('SELECT 1 -- HANG');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(out.timedOut).toBe(true);
    expect(out.ok).toBe(false);
    expect(out.text).toBe(
      'Query stopped: it ran for more than 0.1 seconds. The database was rebuilt by replaying the 2 earlier statements of this episode; the stopped statement had no effect.',
    );
    expect(out.hash).toBe(before);

    expect(hosts.created).toHaveLength(2);
    expect(hosts.created[0].terminated).toBe(true);
    expect(hosts.created[1].requests.map((r) => (r.op === 'exec' ? r.sql : r.op))).toEqual(['open', insert, 'SELECT nope', 'hash']);
    expect(ex.statements).toEqual([insert, 'SELECT nope']);
    expect(ex.restarts).toBe(1);
    expect((await ex.exec(`SELECT COUNT(*) FROM ${TABLE} WHERE Title = 'kept'`)).text).toBe('[(1,)]');
    ex.close();
    expect(hosts.created[1].terminated).toBe(true);
  });

  it('treats a failed host like a runaway statement', async () => {
    const hosts = fakeHosts();
    const ex = await GuardedExecutor.open(hosts.make, SETUP, { timeoutMs: 1000 });
    const out = await ex.exec('SELECT 1 -- CRASH');
    expect(out.text).toBe(
      'Query stopped: the database failed while running it (worker crashed). The database was rebuilt by replaying the 0 earlier statements of this episode; the stopped statement had no effect.',
    );
    expect((await ex.exec('SELECT 2')).text).toBe('[(2,)]');
    ex.close();
  });

  it('drops a cancelled statement (abort) and rebuilds in the background', async () => {
    const hosts = fakeHosts();
    const ex = await GuardedExecutor.open(hosts.make, SETUP, { timeoutMs: 5000 });
    await ex.exec(`UPDATE ${TABLE} SET Title = 'x' WHERE Year = '2017'`);
    const controller = new AbortController();
    const pending = ex.exec('SELECT 1 -- HANG', controller.signal);
    await sleep(20);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect((await ex.exec(`SELECT COUNT(*) FROM ${TABLE} WHERE Title = 'x'`)).text).toBe('[(1,)]');
    expect(ex.statements).toHaveLength(2);
    expect(hosts.created).toHaveLength(2);
    ex.close();
  });

  it('reports a database that cannot be rebuilt, without throwing', async () => {
    const hosts = fakeHosts({ failOpenAfter: 1 });
    const ex = await GuardedExecutor.open(hosts.make, SETUP, { timeoutMs: 50 });
    const out = await ex.exec('HANG');
    expect(out.text).toMatch(/^The database is unavailable: the database could not be created: no memory\./);
    expect((await ex.exec('SELECT 1')).text).toMatch(/^The database is unavailable/);
    ex.close();
  });

  it('takes the table hash of a fresh database from its open (one request at reset), and asks again after a statement', async () => {
    const hosts = fakeHosts();
    const ex = await GuardedExecutor.open(hosts.make, SETUP);
    const atOpen = await ex.hash();
    const other = await GuardedExecutor.open(hosts.make, SETUP);
    await other.exec('SELECT 1');
    // The same table hashed by the host's own 'hash' request (asked after a statement that changed nothing).
    expect(await other.hash()).toBe(atOpen);
    expect(hosts.created[0].requests.map((r) => r.op)).toEqual(['open']);
    expect(hosts.created[1].requests.map((r) => r.op)).toEqual(['open', 'exec', 'hash']);
    await ex.exec(`UPDATE ${TABLE} SET Title = 'changed'`);
    expect(await ex.hash()).not.toBe(atOpen);
    expect(hosts.created[0].requests.map((r) => r.op)).toEqual(['open', 'exec', 'hash']);
    ex.close();
    other.close();
  });

  it('a worker\'s service that warmed up before its first request answers as one that did not', async () => {
    const warmed = createDbService(loadNodeSqlJs, { warm: true });
    await loadNodeSqlJs();
    await sleep(300); // the warm-up runs a statement per task once sql.js is ready
    const cold = createDbService(loadNodeSqlJs);
    const script: HostRequest[] = [
      { op: 'open', setup: SETUP },
      { op: 'exec', sql: `SELECT COUNT(*) FROM ${TABLE}` },
      { op: 'exec', sql: 'SELECT * FROM warm_up' },
      { op: 'exec', sql: `UPDATE ${TABLE} SET Title = 'x' WHERE Title IS NULL` },
      { op: 'hash' },
    ];
    for (const req of script) expect(await warmed(req)).toEqual(await cold(req));
  });

  it('fails to open when the host cannot create the database', async () => {
    const hosts = fakeHosts({ failOpenAfter: 0 });
    await expect(GuardedExecutor.open(hosts.make, SETUP)).rejects.toThrow('the database could not be created: no memory');
  });

  it('stops a real runaway query in a Node worker thread within 2 s and keeps the episode', { timeout: 60000 }, async () => {
    const ex = await GuardedExecutor.open(nodeWorkerHost, SETUP);
    await ex.exec(DB_ROWS[41].label[0]);
    const started = performance.now();
    const out = await ex.exec('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c');
    const elapsed = performance.now() - started;
    expect(out.timedOut).toBe(true);
    expect(out.text).toMatch(/^Query stopped: it ran for more than 2 seconds\. The database was rebuilt by replaying the 1 earlier statement/);
    expect(elapsed).toBeGreaterThanOrEqual(1990);
    expect(out.hash).toBe(DB_ROWS[41].answer_md5);
    expect((await ex.exec('SELECT 40 + 2')).text).toBe('[(42,)]');
    ex.close();
  });

  it('runs an episode on worker threads when that factory is set', { timeout: 60000 }, async () => {
    setDbExecutorFactory(nodeWorkerExecutorFactory({ timeoutMs: 500 }));
    const t = task(db, 'db-dev-041');
    const { context, output } = await playEpisode(
      db,
      t,
      [
        operationReply(DB_ROWS[41].label[0]),
        operationReply('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c'),
        'Action: Answer\nFinal Answer: []',
      ],
      { seed: 0 },
    );
    expect(context.history[1].observation).toMatch(/^Query stopped: it ran for more than 0\.5 seconds\./);
    expect(context.history[1].info?.timedOut).toBe(true);
    expect(output).toEqual({ score: 1, success: true, steps: 3, finishReason: 'Complete' });
    expect((context.state as DbState).session.toJSON()).toEqual({ statements: 1, restarts: 1 });
  });
});
