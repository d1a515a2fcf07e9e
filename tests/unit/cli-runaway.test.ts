/**
 * Issue 16, item 2, in the CLI: sql.js and the embedded shell run in worker threads, so a
 * runaway query or command in a model run is ended from outside (the thread is terminated and
 * rebuilt by replaying the episode), the observation says so, and the episode goes on with
 * everything done before. Before, the recursive query hung the run forever. The child process
 * gets a hard limit, so a hang fails the test instead of stalling the suite.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function cli(args: string[], input = ''): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], { cwd: root, input, encoding: 'utf8', timeout: 60_000 });
}

function run(env: string, task: string, replies: string[], out?: string, extra: string[] = []): { code: number | null; lines: Record<string, unknown>[]; ms: number } {
  const start = performance.now();
  const r = cli(['run', '--env', env, '--task', task, ...(out ? ['--out', out] : []), ...extra], replies.map((x) => JSON.stringify(x)).join('\n') + '\n');
  return { code: r.status, lines: r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)), ms: performance.now() - start };
}

const sql = (q: string) => `Action: Operation\n\`\`\`sql\n${q}\n\`\`\``;
const bash = (c: string) => `Act: bash\n\n\`\`\`bash\n${c}\n\`\`\``;

describe('cli: runaway work is ended from outside the engine', () => {
  it('db: a recursive query without end is stopped with an error observation; the episode goes on with the earlier UPDATE', () => {
    const r = run('db', 'db-dev-003', [
      sql("UPDATE skyscrapers_in_Columbus SET Notes = 'x' WHERE Name = 'Capitol Square'"),
      sql('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c'),
      sql("SELECT Notes FROM skyscrapers_in_Columbus WHERE Name = 'Capitol Square'"),
    ]);
    console.log(`cli db run with a runaway query: ${r.ms.toFixed(0)} ms in all`);
    expect(r.code).toBe(0);
    expect(r.lines[1]).toMatchObject({
      t: 2,
      valid: true,
      observation: 'Query stopped: it ran for more than 2 seconds. The database was rebuilt by replaying the 1 earlier statement of this episode; the stopped statement had no effect.',
    });
    expect(r.lines[2]).toMatchObject({ t: 3, observation: "[('x',)]" });
    expect(r.lines[3]).toMatchObject({ steps: 3, finishReason: 'Given Up' });
  }, 90_000);

  it('os: a runaway python command is stopped from outside the shell; files, cwd and variables from before are kept; the episode verifies', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'agentplay-runaway-')), 'os.jsonl');
    const r = run(
      'os',
      'os-dev-24',
      [bash('echo kept > /root/before.txt; cd /tmp; x=5'), bash(`python3 -c "print(len(('ab'*4000000).replace('a','a'*20)))"`), bash('cat /root/before.txt; pwd; echo $x')],
      out,
    );
    console.log(`cli os run with a runaway command: ${r.ms.toFixed(0)} ms in all`);
    expect(r.code).toBe(0);
    expect(r.lines[1]).toMatchObject({
      t: 2,
      observation: 'The output of the OS:\n\n[The command was stopped: it ran longer than 2.0 s and was ended from outside the shell; files it changed are as before it.]\n',
    });
    expect(r.lines[2]).toMatchObject({ t: 3, observation: 'The output of the OS:\n\nkept\n/tmp\n5\n' });
    expect(r.lines[3]).toMatchObject({ steps: 3, finishReason: 'Given Up' });
    // Re-running the record meets the same stop and the same state.
    const verified = cli(['verify', out]);
    expect(verified.stdout).toContain('1 of 1 episode(s) verified');
    expect(verified.status).toBe(0);
  }, 120_000);

  it('os: --shell embedded, the default named, still runs the shell in its guarded worker', () => {
    const r = run('os', 'os-dev-24', [bash(`python3 -c "print(len(('ab'*4000000).replace('a','a'*20)))"`)], undefined, ['--shell', 'embedded']);
    expect(r.code).toBe(0);
    expect(r.lines[0]).toMatchObject({ t: 1, observation: expect.stringContaining('was ended from outside the shell') });
  }, 90_000);
});
