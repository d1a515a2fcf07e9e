/**
 * A new environment is one folder and one catalogue line: the test game in tests/envs/guess
 * is reached only through tests/envs/catalogue.ts, and the CLI, the episode machine, the
 * drivers and the text view take it as they take the built-in ones.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import line from '../envs/catalogue.ts';
import { envIds, loadEnv, registerEnv } from '../../envs/index.ts';
import { startEpisode } from '../../envs/core/runner.ts';
import { runScriptedDriver } from '../../runtime/drivers/index.ts';
import { planUnits } from '../../runtime/eval/index.ts';
import { batchJobs, taskSets } from '../../src/watch/taskSets.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = fileURLToPath(new URL('../..', import.meta.url));

function cli(args: string[], input = ''): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], {
    cwd: root,
    input,
    encoding: 'utf8',
    env: { ...process.env, AGENTPLAY_ENVS: 'tests/envs/catalogue.ts' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('an environment added by one catalogue line', () => {
  it('joins the catalogue, and twice is refused', async () => {
    registerEnv(line);
    expect(envIds()).toContain('guess');
    expect(() => registerEnv(line)).toThrow('An environment with id "guess" is already in the catalogue.');
    const env = await loadEnv('guess');
    const actor = startEpisode(env, env.tasks()[1], { seed: 4 });
    expect(await runScriptedDriver({ actor, env, task: env.tasks()[1], kind: 'oracle' })).toEqual({ stop: 'finished', steps: 1, finishReason: 'Complete' });
  });

  it('is listed, played from stdin and by the oracle in the CLI', () => {
    // A game from no paper belongs to the custom suite.
    expect(cli(['envs']).out).toContain('guess\tCustom\tGuess the number (test game)\n');
    const played = cli(['run', '--env', 'guess', '--task', 'guess-5', '--seed', '2'], 'Guess 1\nGuess 2\nGuess 3\nGuess 4\nGuess 5\n');
    expect(played.code).toBe(0);
    const lines = played.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ success: true, finishReason: 'Complete', score: 1 });
    expect(lines[0].observation).toMatch(/^You guessed 1: (higher|correct)\.$/);
    const oracle = cli(['run', '--env', 'guess', '--task', 'guess-9', '--agent', 'oracle', '--episodes', '3']);
    expect(oracle.code).toBe(0);
    expect(JSON.parse(oracle.out.trim().split('\n').at(-1)!)).toMatchObject({ episodes: 3, meanScore: 1, successRate: 1, benchmark: 'Custom' });
  });

  it('scores as itself: its own table, no published rows beside it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'guess-')), 'guess.jsonl');
    expect(cli(['run', '--env', 'guess', '--task', 'guess-9', '--agent', 'random', '--episodes', '4', '--out', file]).code).toBe(0);
    const scored = cli(['scores', file]);
    expect(scored.code).toBe(0);
    expect(scored.out).toMatch(/^Custom \(a suite from no paper/m);
    expect(scored.out).toContain('Guess1to9-v0 mean score');
    // No paper's table, and no published row or source line.
    expect(scored.out).not.toMatch(/SmartPlay|AgentBench|AgentBoard|^published: |^Published: /m);
  });

  it('the CLI and the app plan the same episodes for it (the suite’s count per task)', async () => {
    const env = await loadEnv('guess');
    const cliPlan = planUnits([env]).map((u) => `${u.task.id}/${u.seed}`);
    const all = taskSets(env).find((s) => s.key === 'all')!;
    const appPlan = batchJobs(env, all, 0, null).map((j) => `${j.taskId}/${j.seed}`);
    expect(cliPlan.length).toBe(20);
    expect(appPlan).toEqual(cliPlan);
  });
});
