/**
 * Verified replays (runtime/verify.ts) and the `verify` CLI's exit codes: an untouched
 * episode verifies, a tampered one diverges at the tampered step naming the field.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HANOI_ACTIONS, hanoiSolution } from '../../envs/hanoi/index.ts';
import { recordActions } from '../../runtime/recordActions.ts';
import { describeVerdict, replayCaveat, verifyEpisode } from '../../runtime/verify.ts';
import { loadEnv } from '../../envs/index.ts';
import { toJsonl } from '../../runtime/jsonl.ts';
import type { EpisodeRecord } from '../../runtime/records.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const solve3 = () => hanoiSolution(3).map((i) => HANOI_ACTIONS[i]);

function tamper(record: EpisodeRecord, t: number, change: Partial<EpisodeRecord['steps'][number]>): EpisodeRecord {
  return { header: record.header, steps: record.steps.map((s) => (s.t === t ? { ...s, ...change } : s)) };
}

describe('verifyEpisode', () => {
  it('an untouched episode verifies, with invalid moves in it', async () => {
    const actions = [HANOI_ACTIONS[1], 'nonsense', ...solve3()]; // an illegal move and unmatched text
    const record = await recordActions('hanoi', 'hanoi-3', 4, actions, { id: 'ok' });
    expect(record.steps.some((s) => !s.valid)).toBe(true);
    const v = await verifyEpisode(record);
    expect(v).toEqual({ kind: 'verified', steps: record.steps.length });
    expect(describeVerdict(v)).toBe(`verified (${record.steps.length} steps)`);
  });

  it('a tampered observation, reward or score diverges at that step', async () => {
    const record = await recordActions('hanoi', 'hanoi-3', 1, solve3(), { id: 'x' });
    const obs = await verifyEpisode(tamper(record, 3, { observation: 'something else' }));
    expect(obs).toMatchObject({ kind: 'diverged', step: 3, field: 'observation', recorded: 'something else' });
    expect(obs.kind === 'diverged' && obs.expected).toBe(record.steps[2].observation);
    expect(await verifyEpisode(tamper(record, 5, { reward: 7 }))).toMatchObject({ kind: 'diverged', step: 5, field: 'reward', expected: '0', recorded: '7' });
    expect(await verifyEpisode(tamper(record, 2, { score: 9 }))).toMatchObject({ kind: 'diverged', step: 2, field: 'score' });
    // A changed action replays to another observation.
    const changed = await verifyEpisode(tamper(record, 4, { action: HANOI_ACTIONS[0] }));
    expect(changed).toMatchObject({ kind: 'diverged', step: 4 });
    expect(describeVerdict(changed)).toMatch(/^diverges at step 4 \(\w+\): expected .+, recorded .+/s);
  });

  it('a record that goes on after the environment ended diverges; a wrong seed diverges at step 0 where the reset differs', async () => {
    const record = await recordActions('hanoi', 'hanoi-3', 1, solve3(), { id: 'end' });
    const extra = { ...record.steps[record.steps.length - 1], t: record.steps.length + 1 };
    expect(await verifyEpisode({ header: record.header, steps: [...record.steps, extra] })).toMatchObject({ kind: 'diverged', step: record.steps.length + 1, field: 'episode end' });
    const bandits = await recordActions('bandits', 'bandits-highlow', 3, ['Pull slot machine 1.', 'Pull slot machine 2.'], { id: 'b' });
    expect(await verifyEpisode(bandits)).toMatchObject({ kind: 'verified' });
  });

  it('unknown environments and tasks are reported, not thrown', async () => {
    const record = await recordActions('hanoi', 'hanoi-3', 1, [], { id: 'u' });
    expect(await verifyEpisode({ ...record, header: { ...record.header, env: 'nope' } })).toMatchObject({ kind: 'error' });
    expect(await verifyEpisode({ ...record, header: { ...record.header, task: 'hanoi-99' } })).toMatchObject({ kind: 'error', message: 'unknown task "hanoi-99" of hanoi' });
  });

  it('OS episodes whose commands read the machine say they cannot be replayed exactly', async () => {
    const record = await recordActions('hanoi', 'hanoi-3', 1, [], { id: 'c' });
    const os = { header: { ...record.header, env: 'os' }, steps: [{ ...record.steps[0], t: 1, action: 'Act: bash\n```bash\nps -e\n```' } as never] };
    expect(replayCaveat(os, await loadEnv('os'))).toMatch(/step 1 runs a command whose output depends on the machine/);
    expect(replayCaveat(record, await loadEnv('hanoi'))).toBeNull();
  });
});

describe('cli verify', () => {
  const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', 'verify', ...args], { cwd: root, encoding: 'utf8' });

  it('exit 0 when all verify, 1 when one diverges, 2 for bad arguments or files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verify-'));
    const good = await recordActions('hanoi', 'hanoi-3', 1, solve3(), { id: 'good' });
    const good2 = await recordActions('rps', 'rps-basic', 2, ['Rock', 'Paper', 'Scissors'], { id: 'good2' });
    const bad = tamper(await recordActions('hanoi', 'hanoi-3', 2, solve3(), { id: 'bad' }), 3, { observation: 'tampered' });
    writeFileSync(join(dir, 'good.jsonl'), toJsonl([good, good2]));
    writeFileSync(join(dir, 'mixed.jsonl'), toJsonl([good, bad]));
    writeFileSync(join(dir, 'broken.jsonl'), '{not json\n');

    const ok = run([join(dir, 'good.jsonl')]);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/ok {3}.* good hanoi-3 seed 1: verified \(7 steps\)/);
    expect(ok.stdout.trim().split('\n').pop()).toBe('2 of 2 episode(s) verified');

    const mixed = run(['--json', join(dir, 'mixed.jsonl')]);
    expect(mixed.status).toBe(1);
    const lines = mixed.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[1]).toMatchObject({ id: 'bad', kind: 'diverged', step: 3, field: 'observation', recorded: 'tampered' });
    expect(lines[2]).toEqual({ episodes: 2, verified: 1, failed: 1, unmatched: 0 });

    expect(run([]).status).toBe(2);
    expect(run([join(dir, 'broken.jsonl')]).status).toBe(2);
    expect(run([join(dir, 'missing.jsonl')]).status).toBe(2);
    expect(run(['--nope', join(dir, 'good.jsonl')]).status).toBe(2);
  }, 60_000);

  it('verifies the benchmarks\' own logs: an AgentBoard log exits 0, a tampered one 1 naming the step', () => {
    const dir = mkdtempSync(join(tmpdir(), 'verify-ab-'));
    const make = (path: string, args: string[]) => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'tests/support/make-agentboard-log.ts', path, ...args], { cwd: root, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    };
    mkdirSync(join(dir, 'gpt-4', 'logs'), { recursive: true });
    mkdirSync(join(dir, 'bad', 'logs'), { recursive: true });
    make(join(dir, 'gpt-4', 'logs', 'babyai.jsonl'), ['0', '3']);
    make(join(dir, 'bad', 'logs', 'babyai.jsonl'), ['--tamper', '0', '4']);
    const ok = run([join(dir, 'gpt-4', 'logs', 'babyai.jsonl')]);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/ok {3}.* babyai-0 seed 0: verified/);
    const bad = run(['--json', join(dir, 'bad', 'logs', 'babyai.jsonl')]);
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.stdout.split('\n')[0])).toMatchObject({ task: 'babyai-4', kind: 'diverged', step: 1, field: 'observation', recorded: 'You see a purple dragon.' });
  }, 60_000);
});
