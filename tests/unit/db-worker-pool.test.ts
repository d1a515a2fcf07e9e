/**
 * The CLI's DB worker pool (envs/db/node.ts): an episode that ended cleanly leaves its worker
 * for the next one, which starts from a fresh database; a worker stopped by the deadline, or
 * one that may hold a file in sql.js's file system, is never reused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DB_ROWS, setupFor } from '../../envs/db/tasks.ts';
import { DbWorkerPool, nodeWorkerExecutorFactory } from '../../envs/db/node.ts';

const ROW = DB_ROWS[41]; // Actress Filmography, an UPDATE task (hash after every statement)
const SETUP = setupFor(ROW);
const TABLE = '`Actress Filmography`';

let pool: DbWorkerPool;
afterEach(() => pool?.clear());

/** Resolves once the pool holds an idle worker again. */
async function idleAgain(p: DbWorkerPool): Promise<void> {
  for (let i = 0; i < 200 && (p as unknown as { idle: unknown[] }).idle.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
}

describe('DB worker pool', { timeout: 60000 }, () => {
  it('reuses a worker for the next episode, which starts from a fresh database', async () => {
    pool = new DbWorkerPool();
    const open = nodeWorkerExecutorFactory({ pool });
    const first = await open(SETUP);
    const fresh = await first.hash();
    await first.exec(`DELETE FROM ${TABLE}`);
    await first.exec('CREATE TABLE leftover(x); INSERT INTO leftover VALUES (1)');
    await first.exec('CREATE TEMP TABLE scratch(y)');
    expect(await first.hash()).not.toBe(fresh);
    first.close();
    await idleAgain(pool);

    const second = await open(SETUP);
    expect(pool.started).toBe(1); // the same worker
    expect(await second.hash()).toBe(fresh);
    expect((await second.exec(`SELECT COUNT(*) FROM ${TABLE}`)).text).not.toBe('[(0,)]');
    expect((await second.exec('SELECT * FROM leftover')).text).toMatch(/leftover' doesn't exist/);
    expect((await second.exec('SELECT * FROM scratch')).text).toMatch(/scratch' doesn't exist/);
    second.close();
  });

  it('hands a released worker to an episode opened right after, without starting another', async () => {
    pool = new DbWorkerPool();
    const open = nodeWorkerExecutorFactory({ pool });
    const first = await open(SETUP);
    await first.exec(`DELETE FROM ${TABLE}`);
    first.close();
    // As the eval runner does: the next episode opens at once.
    const second = await open(SETUP);
    expect(pool.started).toBe(1);
    expect((await second.exec(`SELECT COUNT(*) FROM ${TABLE}`)).text).not.toBe('[(0,)]');
    second.close();
  });

  it('never reuses a worker stopped by the deadline; the episode goes on in a new one', async () => {
    pool = new DbWorkerPool();
    const open = nodeWorkerExecutorFactory({ pool, timeoutMs: 300 });
    const ex = await open(SETUP);
    await ex.exec(ROW.label[0]);
    const out = await ex.exec('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c');
    expect(out.timedOut).toBe(true);
    expect(out.hash).toBe(ROW.answer_md5);
    expect(pool.started).toBe(2);
    ex.close(); // the rebuilt worker is idle: it may be kept
    await idleAgain(pool);
    const next = await open(SETUP);
    expect(pool.started).toBe(2);
    expect((await next.exec('SELECT 40 + 2')).text).toBe('[(42,)]');
    next.close();
  });

  it('does not reuse a worker after ATTACH or VACUUM, which the MySQL dialect refuses anyway (a file would outlive the database)', async () => {
    pool = new DbWorkerPool();
    const open = nodeWorkerExecutorFactory({ pool });
    const first = await open(SETUP);
    expect((await first.exec("ATTACH DATABASE 'leak.db' AS a")).text).toMatch(/^1064 \(42000\): You have an error in your SQL syntax/);
    first.close();
    const second = await open(SETUP);
    expect(pool.started).toBe(2);
    second.close();
    await idleAgain(pool);
    const third = await open(SETUP);
    expect(pool.started).toBe(2); // a clean episode's worker is reused
    third.close();
  });
});
