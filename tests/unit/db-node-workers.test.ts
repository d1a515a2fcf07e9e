/**
 * The CLI's DB workers (envs/db/node.ts): the episodes in flight share a few worker threads,
 * each database with its own number; an episode that ended leaves its worker warm for the next
 * one, which starts from a fresh database; a worker where a file may have been written takes
 * no further episodes; and idle workers never hold the process open. (How a runaway's worker
 * is ended while the others sharing it go on: db-shared-workers.test.ts, over the same threads.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DB_ROWS, setupFor } from '../../envs/db/tasks.ts';
import { nodeDbWorkers, nodeWorkerExecutorFactory } from '../../envs/db/node.ts';
import type { SharedDbWorkers } from '../../envs/db/sharedWorkers.ts';

const ROW = DB_ROWS[41]; // Actress Filmography, an UPDATE task (hash after every statement)
const SETUP = setupFor(ROW);
const TABLE = '`Actress Filmography`';
const COUNT = `SELECT COUNT(*) FROM ${TABLE}`;

let workers: SharedDbWorkers | null = null;
afterEach(() => workers?.clear());

/** Executors over fresh Node workers (no spare started behind them unless asked). */
function open(options: Parameters<typeof nodeDbWorkers>[0] = {}) {
  workers = nodeDbWorkers({ spareAfterMs: 60_000, ...options });
  return nodeWorkerExecutorFactory({ workers });
}

describe('the CLI DB workers', { timeout: 60000 }, () => {
  it('keeps a worker for the next episode, which starts from a fresh database', async () => {
    const factory = open();
    const first = await factory(SETUP);
    const fresh = await first.hash();
    await first.exec(`DELETE FROM ${TABLE}`);
    await first.exec('CREATE TABLE leftover(x); INSERT INTO leftover VALUES (1)');
    await first.exec('CREATE TEMP TABLE scratch(y)');
    expect(await first.hash()).not.toBe(fresh);
    first.close();
    // As the eval runner does: the next episode opens at once.
    const second = await factory(SETUP);
    expect(workers!.started).toBe(1);
    expect(await second.hash()).toBe(fresh);
    expect((await second.exec(COUNT)).text).not.toBe('[(0,)]');
    expect((await second.exec('SELECT * FROM leftover')).text).toMatch(/leftover' doesn't exist/);
    expect((await second.exec('SELECT * FROM scratch')).text).toMatch(/scratch' doesn't exist/);
    second.close();
  });

  it('shares its workers among the episodes in flight, each with a database of its own', async () => {
    const factory = open({ maxWorkers: 2 });
    const episodes = await Promise.all(Array.from({ length: 16 }, () => factory(SETUP)));
    expect(workers!.started).toBe(2);
    expect(workers!.loads().reduce((a, b) => a + b, 0)).toBe(16);
    await episodes[3].exec(`DELETE FROM ${TABLE}`);
    await episodes[12].exec(ROW.label[0]);
    const counts = await Promise.all(episodes.map(async (e) => (await e.exec(COUNT)).text));
    expect(counts[3]).toBe('[(0,)]');
    expect(counts.filter((c) => c === '[(0,)]')).toHaveLength(1);
    expect(await episodes[12].hash()).toBe(ROW.answer_md5);
    expect(await episodes[0].hash()).not.toBe(ROW.answer_md5);
    for (const e of episodes) e.close();
  });

  it('takes no further episode into a worker after ATTACH or VACUUM, which the MySQL dialect refuses anyway (a file would outlive the database)', async () => {
    const factory = open({ maxWorkers: 2 });
    const first = await factory(SETUP);
    expect((await first.exec("ATTACH DATABASE 'leak.db' AS a")).text).toMatch(/^1064 \(42000\): You have an error in your SQL syntax/);
    const second = await factory(SETUP);
    expect(workers!.started).toBe(2);
    expect(workers!.loads()).toEqual([1, 1]);
    first.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(workers!.loads()).toEqual([1]); // the tainted worker ended once empty
    second.close();
  });

  it('lets the process exit while its workers are alive and idle', async () => {
    const nodeTs = fileURLToPath(new URL('../../envs/db/node.ts', import.meta.url));
    const tasksTs = fileURLToPath(new URL('../../envs/db/tasks.ts', import.meta.url));
    const code = `
      const { nodeWorkerExecutorFactory } = await import(${JSON.stringify(nodeTs)});
      const { DB_ROWS, setupFor } = await import(${JSON.stringify(tasksTs)});
      const executor = await nodeWorkerExecutorFactory()(setupFor(DB_ROWS[3]));
      console.log((await executor.exec('SELECT 40 + 2')).text);
      executor.close();`;
    const dir = mkdtempSync(join(tmpdir(), 'agentplay-db-exit-'));
    const script = join(dir, 'run.mts');
    writeFileSync(script, code);
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill();
        resolve(null);
      }, 30_000);
      child.on('exit', (status) => {
        clearTimeout(timer);
        resolve(status);
      });
    });
    rmSync(dir, { recursive: true, force: true });
    expect(out.trim()).toBe('[(42,)]');
    expect(exited).toBe(0);
  });
});
