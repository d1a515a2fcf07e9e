/** The `scores` command: the same numbers as the scoring module, as text, JSON or CSV. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogueTaskInfo, readEpisodes, scoresCommand } from '../../scripts/scores.ts';
import { computeScores } from '../../runtime/scores/index.ts';
import { toJsonl } from '../../runtime/jsonl.ts';
import { episode } from './scores-episodes.ts';

const dir = mkdtempSync(join(tmpdir(), 'scores-cli-'));

const records = [
  episode({ env: 'hanoi', task: 'hanoi-3', participant: 'ann', score: 3 }),
  episode({ env: 'hanoi', task: 'hanoi-3', participant: 'bob', score: 2 }),
  episode({ env: 'hanoi', task: 'hanoi-3', participant: 'bob', score: 1, practice: true }),
  episode({ env: 'hanoi', task: 'hanoi-3', kind: 'random', score: 0 }),
  episode({ env: 'hanoi', task: 'hanoi-4', participant: 'ann', score: 4 }),
  episode({ env: 'hanoi', task: 'hanoi-4', kind: 'oracle', score: 4 }),
  episode({ env: 'bandits', task: 'bandits-highlow', kind: 'model', name: 'tiny', score: 30 }),
  episode({ env: 'db', task: 'db-dev-000', kind: 'model', name: 'tiny', success: true }),
  episode({ env: 'os', task: 'os-dev-00', kind: 'model', name: 'tiny', success: false, finishReason: 'Task Limit Exceeded' }),
  episode({ env: 'babyai', task: 'babyai-0', kind: 'random', success: false, steps: [{ action: 'check available actions', valid: true, progress: 0 }] }),
  episode({ env: 'pddl', task: 'pddl-0', kind: 'oracle', success: true, steps: [{ progress: 1 }] }),
  episode({ env: 'babyai', task: 'babyai-GoToRedBall-seed42', kind: 'random', success: true, steps: [{ progress: 1 }] }),
];
const file = join(dir, 'mixed.jsonl');
writeFileSync(file, toJsonl(records));

async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await scoresCommand(args, (s) => (out += s));
  return { code, out };
}

describe('scores command', { timeout: 30_000 }, () => {
  it('prints with --json exactly the report the scoring module computes', async () => {
    const r = await run([file, '--json', '--seed', '3', '--resamples', '200']);
    expect(r.code).toBe(0);
    const expected = computeScores(records, { taskInfo: await catalogueTaskInfo(records), seed: 3, resamples: 200 });
    expect(JSON.parse(r.out)).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(expected.skipped).toEqual([{ id: records[2].header.id, reason: 'practice' }]);
  });

  it('reads what each task is from the environment catalogue', async () => {
    const info = await catalogueTaskInfo(records);
    expect(info('hanoi', 'hanoi-3')).toMatchObject({ suiteName: 'SmartPlay', column: 'Hanoi', name: 'Hanoi3Disk-v0' });
    expect(info('hanoi', 'hanoi-4')).toMatchObject({ suiteName: 'SmartPlay', column: undefined, name: 'Hanoi4Disk-v0' });
    expect(info('bandits', 'bandits-highlow')).toMatchObject({ column: 'Bandit' });
    expect(info('db', 'db-dev-000')).toMatchObject({ suiteName: 'AgentBench', column: 'DB' });
    expect(info('db', 'db-dev-000')!.category).toMatch(/^(INSERT|UPDATE|other|counting|comparison|ranking|aggregation-\w+)$/);
    expect(info('os', 'os-dev-00')).toMatchObject({ suiteName: 'AgentBench', column: 'OS' });
    expect(info('babyai', 'babyai-0')!.difficulty).toMatch(/^(easy|hard)$/);
    expect(info('pddl', 'pddl-0')).toMatchObject({ suiteName: 'AgentBoard', column: 'PL' });
    // A level × seed of one's own: scored, but outside the paper's BA column.
    expect(info('babyai', 'babyai-GoToRedBall-seed42')).toMatchObject({ suiteName: 'AgentBoard', column: undefined, difficulty: 'custom' });
    expect(info('hanoi', 'no-such-task')).toBeUndefined();
  });

  it('prints plain-text tables with the published rows marked', async () => {
    const r = await run([file, '--resamples', '100']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('SmartPlay (human baseline: published;');
    expect(r.out).toMatch(/published: GPT-4-0613 +45\.09 +1\.00/);
    expect(r.out).toContain('Hanoi4Disk-v0 has no published human or minimum score: normalised against recorded human play (min 0).');
    expect(r.out).toContain('AgentBench (percent; DB = overall_cat_accuracy). OA over OS, DB; missing: KG, DCG, LTP, HH, WS, WB.');
    expect(r.out).toContain('AgentBoard (percent)');
    expect(r.out).toMatch(/BA progress %.*PL progress %.*babyai progress %/);
    expect(r.out).toContain('Left out: 1 practice.');
  });

  it('prints one CSV line per figure, published figures marked', async () => {
    const r = await run([file, '--csv', '--human', 'recorded', '--resamples', '100']);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines[0]).toBe('benchmark,group,set,metric,value,low,high,n,source');
    // The pooled humans on Hanoi3Disk: ann 3, bob 2 (bob's practice left out).
    expect(lines).toContain('SmartPlay,humans,hanoi-3,score,2.5,2,3,2,computed');
    expect(lines).toContain('SmartPlay,humans,hanoi-3,normalised,1,1,1,2,computed');
    expect(lines).toContain('SmartPlay,GPT-4-0613,bandits-highlow,score,45.09,,,,published');
    expect(lines.some((l) => l.startsWith('AgentBoard,random,BA,groundingAccuracy,100,'))).toBe(true);
  });

  it('honours an exclusion file', async () => {
    const ex = join(dir, 'exclude.txt');
    writeFileSync(ex, `${records[0].header.id}\n`);
    const r = await run([file, '--json', '--exclude', ex, '--resamples', '50']);
    const report = JSON.parse(r.out);
    expect(report.skipped).toContainEqual({ id: records[0].header.id, reason: 'excluded' });
    expect(report.smartplay.rows.find((x: { group: { key: string } }) => x.group.key === 'human:ann').cells['hanoi-3']).toBeUndefined();
  });

  it('refuses bad usage (exit 2) and unreadable files (exit 1) with a message', async () => {
    expect((await run([])).code).toBe(2);
    expect((await run([file, '--json', '--csv'])).out).toMatch(/^Choose one of --json and --csv\./);
    expect((await run([file, '--human', 'paper'])).code).toBe(2);
    expect((await run([file, '--seed', '-1'])).code).toBe(2);
    expect((await run([file, '--bogus'])).code).toBe(2);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, `${toJsonl(records.slice(0, 1))}{"format":"other"}\n`);
    const r = await run([bad]);
    expect(r.code).toBe(1);
    expect(r.out).toBe(`${bad}:2: not an agentplay episode\n`);
    expect(() => readEpisodes('{', 'x.jsonl')).toThrow(/^x\.jsonl:1: not valid JSON/);
  });

  it('prints its usage with --help', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: scores FILE\.jsonl…/);
  });
});
