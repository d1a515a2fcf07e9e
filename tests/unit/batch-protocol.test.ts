/** Batches under each benchmark's protocol: default sizes, the summary's metrics, and the CLI's use of them. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../envs/index.ts';
import { batchSummary } from '../../runtime/batch.ts';
import { suiteOf } from '../../suites/index.ts';
import { envTaskInfo } from '../../runtime/taskInfo.ts';
import { computeScores } from '../../runtime/scores/index.ts';
import { catalogueTaskInfo } from '../../runtime/taskInfo.ts';
import { episode } from './scores-episodes.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
function cli(args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], { cwd: root, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('each suite’s batch defaults', () => {
  it('follows SmartPlay’s recorded counts and plays AgentBench and AgentBoard sets whole', async () => {
    const counts: Record<string, number> = {};
    for (const id of ['bandits', 'rps', 'hanoi']) {
      const env = await loadEnv(id);
      for (const t of env.tasks()) counts[t.name] = suiteOf(env).batchDefaults(t).episodes;
    }
    expect(counts).toEqual({
      'BanditTwoArmedHighLowFixed-v0': 20,
      'BanditTwoArmedDeterministicFixed-v0': 20,
      'BanditTwoArmedHighHighFixed-v0': 20,
      'BanditTwoArmedLowLowFixed-v0': 20,
      'RockPaperScissorBasic-v0': 20,
      'RockPaperScissorDifferentScore-v0': 20,
      'Hanoi3Disk-v0': 10,
      'Hanoi4Disk-v0': 10,
    });
    for (const id of ['os', 'db', 'babyai', 'pddl']) {
      const env = await loadEnv(id);
      expect(suiteOf(env).batchDefaults(env.tasks()[0])).toMatchObject({ episodes: 1, wholeSet: true });
    }
  });
});

describe('batchSummary', () => {
  it('gives SmartPlay’s score and normalised score, never a success rate', async () => {
    const bandits = await loadEnv('bandits');
    const records = [30, 45, 15].map((score) => episode({ env: 'bandits', task: 'bandits-highlow', kind: 'random', score }));
    const s = batchSummary(records, envTaskInfo([bandits]));
    expect(s.figures.map((f) => [f.group, f.set, f.metric, f.value, f.n])).toEqual([
      ['random', 'bandits-highlow', 'score', 30, 3],
      ['random', 'bandits-highlow', 'normalised', 30 / 45, 3],
    ]);
    expect(s.lines).toEqual([expect.stringMatching(/^BanditTwoArmedHighLowFixed-v0 · random: score 30\.00 \[\S+, \S+\] n=3; normalised 0\.67 \[\S+, \S+\] n=3$/)]);
    expect(s.lines.join()).not.toMatch(/success/);
  });

  it('says so where a game has no published human score to normalise by (Hanoi4Disk)', async () => {
    const hanoi = await loadEnv('hanoi');
    const records = [2, 3].map((score) => episode({ env: 'hanoi', task: 'hanoi-4', kind: 'random', score }));
    const s = batchSummary(records, envTaskInfo([hanoi]));
    expect(s.lines).toEqual([expect.stringMatching(/^Hanoi4Disk-v0 · random: score 2\.50 .*; normalised: none \(no published human score for this game\)$/)]);
  });

  it('gives AgentBench’s success rate and AgentBoard’s progress, success and grounding, as the scores table does', async () => {
    const records = [
      episode({ env: 'os', task: 'os-dev-00', kind: 'oracle', success: true }),
      episode({ env: 'os', task: 'os-dev-01', kind: 'oracle', success: false }),
      episode({ env: 'babyai', task: 'babyai-0', kind: 'model', name: 'm', success: false, steps: [{ action: 'check available actions', valid: false, progress: 0 }, { action: 'go', valid: false, progress: 0.5 }] }),
    ];
    const taskInfo = await catalogueTaskInfo(records);
    const s = batchSummary(records, taskInfo);
    const get = (group: string, set: string, metric: string) => s.figures.find((f) => f.group === group && f.set === set && f.metric === metric)?.value;
    expect(get('oracle', 'OS', 'successRate')).toBe(50);
    expect(get('model:m', 'BA', 'progressRate')).toBe(50);
    expect(get('model:m', 'BA', 'successRate')).toBe(0);
    expect(get('model:m', 'BA', 'groundingAccuracy')).toBe(50); // "check …" counts as valid
    const report = computeScores(records, { taskInfo });
    expect(get('oracle', 'OS', 'successRate')).toBe(report.agentbench!.rows[0].cells.OS.successRate.value);
  });
});

describe('scores are order-independent', () => {
  it('gives the same intervals whatever order the episodes come in', async () => {
    const records = [3, 1, 2, 0, 3, 2, 1, 1].map((score, i) => episode({ env: 'hanoi', task: i % 2 ? 'hanoi-3' : 'hanoi-4', kind: 'random', score }));
    const taskInfo = await catalogueTaskInfo(records);
    const a = computeScores(records, { taskInfo, resamples: 300 });
    const b = computeScores([...records].reverse(), { taskInfo, resamples: 300 });
    expect(b).toEqual(a);
  });
});

describe('cli batches', { timeout: 60_000 }, () => {
  it('--episodes alone plays the benchmark’s count; the summary carries the metric and no success rate for a game without one', () => {
    const r = cli(['run', '--env', 'bandits', '--task', 'bandits-highlow', '--agent', 'oracle', '--episodes']);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(21);
    const summary = lines[20];
    expect(summary).toMatchObject({ episodes: 20, meanScore: 50, benchmark: 'SmartPlay' });
    expect(summary).not.toHaveProperty('successRate');
    expect(summary.metrics).toEqual([
      { group: 'oracle', set: 'bandits-highlow', metric: 'score', value: 50, low: 50, high: 50, n: 20 },
      { group: 'oracle', set: 'bandits-highlow', metric: 'normalised', value: 50 / 45, low: 50 / 45, high: 50 / 45, n: 20 },
    ]);
    expect(r.err).toContain('BanditTwoArmedHighLowFixed-v0 · oracle: score 50.00 [50.00, 50.00] n=20; normalised 1.11 [1.11, 1.11] n=20');
    // Hanoi defines success (the tower moved), so its summary keeps the success rate.
    const hanoi = cli(['run', '--env', 'hanoi', '--task', 'hanoi-3', '--agent', 'oracle', '--episodes']);
    const last = JSON.parse(hanoi.out.trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ episodes: 10, meanScore: 3, successRate: 1, benchmark: 'SmartPlay' });
  });

  it('run --all-tasks plays every task of the set once and writes them', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'batch-')), 'pddl.jsonl');
    const r = cli(['run', '--env', 'pddl', '--all-tasks', '--agent', 'random', '--max-steps', '3', '--out', out]);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(61);
    expect(lines[0]).toMatchObject({ episode: 1, task: 'pddl-0', seed: 0, steps: 3 });
    expect(new Set(lines.slice(0, 60).map((l) => l.task)).size).toBe(60);
    expect(lines[60]).toMatchObject({ episodes: 60, benchmark: 'AgentBoard' });
    expect(lines[60].metrics.map((m: { metric: string }) => m.metric)).toEqual(expect.arrayContaining(['progressRate', 'successRate', 'groundingAccuracy']));
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(60);
  });

  it('reference writes random and oracle episodes for each set and prints their summaries', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'reference-')), 'refs.jsonl');
    const r = cli(['reference', '--out', out, '--env', 'hanoi,os', '--tasks', '1']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Hanoi3Disk-v0 · oracle: score 3.00 [3.00, 3.00] n=10');
    expect(r.out).toMatch(/OS · oracle: success % 100\.0 \[100\.0, 100\.0\] n=1/);
    const records = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    // hanoi-3 × 10 seeds × (random, oracle) + os-dev-00 × (random, oracle).
    expect(records).toHaveLength(22);
    expect(new Set(records.map((x) => x.header.driver.kind))).toEqual(new Set(['random', 'oracle']));
    const scores = cli(['scores', out]);
    expect(scores.out).toMatch(/\noracle +3\.00 \[3\.00, 3\.00\] n=10/);
  });
});
