/**
 * Each benchmark's metrics on hand-made episode sets whose answers are worked out by hand
 * (envs/core/README.md, envs/db/README.md: Upstream), and who counts in which group.
 */
import { describe, expect, it } from 'vitest';
import { computeScores, episodeFacts, episodePoints, type ScoreOptions } from '../../runtime/scores/index.ts';
import { episode, episodes, testTaskInfo } from './scores-episodes.ts';

const opts = (extra: Partial<ScoreOptions> = {}): ScoreOptions => ({ taskInfo: testTaskInfo, resamples: 200, ...extra });
const sp = (task: string, score: number, more: object = {}) => episode({ env: 'smartplay', task, score, ...more });

describe('SmartPlay', () => {
  // Humans score 30 and 50 on Bandit (mean 40); a model scores 45 and 22.5 (mean 33.75).
  const records = [
    sp('Bandit', 30, { participant: 'p1' }),
    sp('Bandit', 50, { participant: 'p2' }),
    sp('Bandit', 45, { kind: 'model', name: 'm' }),
    sp('Bandit', 22.5, { kind: 'model', name: 'm' }),
  ];

  it('normalises against the paper’s human row by default, and says so', () => {
    const t = computeScores(records, opts()).smartplay!;
    expect(t.humanSource).toBe('published');
    expect(t.games[0]).toMatchObject({ column: 'Bandit', min: 0, publishedHuman: 45, human: { source: 'published', value: 45 } });
    expect(t.games[0].recordedHuman.value).toBe(40);
    const m = t.rows.find((r) => r.group.key === 'model:m')!;
    expect(m.cells.Bandit.score).toMatchObject({ value: 33.75, n: 2 });
    expect(m.cells.Bandit.normalised.value).toBeCloseTo(33.75 / 45, 12);
  });

  it('normalises against recorded human play when asked', () => {
    const t = computeScores(records, opts({ humanSource: 'recorded' })).smartplay!;
    expect(t.games[0].human).toEqual({ source: 'recorded', value: 40 });
    const m = t.rows.find((r) => r.group.key === 'model:m')!;
    expect(m.cells.Bandit.normalised.value).toBeCloseTo(33.75 / 40, 12);
    // The pooled humans against their own mean: exactly 1, with no spread.
    const h = t.rows.find((r) => r.group.key === 'humans')!;
    expect(h.cells.Bandit.normalised).toEqual({ value: 1, n: 2, ci: [1, 1] });
    // A single person against the pooled baseline.
    const p1 = t.rows.find((r) => r.group.key === 'human:p1')!;
    expect(p1.cells.Bandit.normalised.value).toBeCloseTo(30 / 40, 12);
  });

  it('normalises Hanoi4Disk only against recorded humans (min 0), whatever the source, and says so', () => {
    const hanoi4 = [sp('Hanoi4Disk-v0', 2, { participant: 'p1' }), sp('Hanoi4Disk-v0', 4, { participant: 'p2' }), sp('Hanoi4Disk-v0', 1.5, { kind: 'random' })];
    const t = computeScores(hanoi4, opts({ humanSource: 'published' })).smartplay!;
    expect(t.games[0]).toMatchObject({ column: null, publishedHuman: null, min: 0, human: { source: 'recorded', value: 3 } });
    expect(t.games[0].note).toMatch(/no published human or minimum score: normalised against recorded human play/);
    expect(t.rows.find((r) => r.group.key === 'random')!.cells['Hanoi4Disk-v0'].normalised.value).toBeCloseTo(0.5, 12);

    const alone = computeScores([sp('Hanoi4Disk-v0', 1.5, { kind: 'random' })], opts()).smartplay!;
    expect(alone.games[0].human).toBeNull();
    expect(alone.rows[0].cells['Hanoi4Disk-v0'].normalised.value).toBeNull();
    expect(alone.notes[0]).toMatch(/not normalised/);
  });

  it('weighs capability scores by challenge level − 1 over the games present', () => {
    // Normalised: Bandit 36/45 = 0.8, RPS 21.5/43 = 0.5, Hanoi 0.6/3 = 0.2.
    const t = computeScores(
      [sp('Bandit', 36, { kind: 'random' }), sp('RPS', 21.5, { kind: 'random' }), sp('Hanoi', 0.6, { kind: 'random' })],
      opts(),
    ).smartplay!;
    const caps = Object.fromEntries(t.rows[0].capabilities.map((c) => [c.capability, c]));
    // Levels (Bandit, RPS, Hanoi): Error 1,1,2 → Hanoi only.
    expect(caps['Error/Mistake Handling'].value.value).toBeCloseTo(0.2, 12);
    expect(caps['Error/Mistake Handling'].columns).toEqual(['Hanoi']);
    // Generalization 2,2,1 → (0.8 + 0.5) / 2.
    expect(caps.Generalization.value.value).toBeCloseTo(0.65, 12);
    // Instruction Following 1,3,2 → (2·0.5 + 1·0.2) / 3.
    expect(caps['Instruction Following'].value.value).toBeCloseTo(1.2 / 3, 12);
    // Understanding the Odds 3,3,1 → (2·0.8 + 2·0.5) / 4.
    expect(caps['Understanding the Odds'].value.value).toBeCloseTo(0.65, 12);
    // Spatial Reasoning is level 1 in all three: no score from these games.
    expect(caps.Generalization.value.n).toBe(2);
    expect(caps['Spatial Reasoning'].value.value).toBeNull();
    expect(caps['Spatial Reasoning'].columns).toEqual([]);
  });

  it('gives the published rows aligned with the games played (none for a game without a column)', () => {
    const t = computeScores([sp('Hanoi', 3, { kind: 'oracle' }), sp('Hanoi4Disk-v0', 4, { kind: 'oracle' })], opts()).smartplay!;
    expect(t.games.map((g) => g.task)).toEqual(['Hanoi', 'Hanoi4Disk-v0']);
    const gpt4 = t.published.rows.find((r) => r.model === 'GPT-4-0613')!;
    expect(gpt4).toMatchObject({ model: 'GPT-4-0613', raw: [2.5, null], normalised: [0.83, null] });
    // Its capability scores over the columns present (Hanoi alone): Planning weighs Hanoi (level 3).
    const planning = gpt4.capabilities.find((c) => c.capability === 'Planning')!;
    expect(planning.value).toBeCloseTo(2.5 / 3, 12);
    expect(gpt4.capabilities.find((c) => c.capability === 'Generalization')!.value).toBeNull();
  });
});

describe('AgentBench', () => {
  const m = { kind: 'model' as const, name: 'm' };
  const db = (cat: string, success: boolean, finishReason: 'Complete' | 'Invalid Format' = 'Complete') =>
    episode({ env: 'db', task: `t:${cat}`, success, finishReason, ...m });
  const records = [
    db('counting', true),
    db('counting', false, 'Invalid Format'),
    db('other', true),
    db('INSERT', true),
    db('INSERT', false),
    db('UPDATE', false, 'Invalid Format'),
    ...[true, true, true, false].map((success) =>
      episode({ env: 'os', task: 'os-x', success, finishReason: success ? 'Complete' : 'Task Limit Exceeded', ...m }),
    ),
  ];

  it('scores DB by category, SELECT / INSERT / UPDATE and overall_cat_accuracy', () => {
    const t = computeScores(records, opts()).agentbench!;
    const cell = t.rows[0].cells.DB;
    const acc = Object.fromEntries(cell.categories!.map((c) => [c.category, c.accuracy]));
    expect(cell.categories!.map((c) => c.category)).toEqual(['other', 'counting', 'SELECT', 'INSERT', 'UPDATE']);
    expect(acc.counting).toMatchObject({ value: 50, n: 2 });
    expect(acc.other).toMatchObject({ value: 100, n: 1 });
    expect(acc.SELECT.value).toBeCloseTo(200 / 3, 10);
    expect(acc.SELECT.n).toBe(3);
    expect(acc.INSERT).toMatchObject({ value: 50, n: 2 });
    expect(acc.UPDATE).toMatchObject({ value: 0, n: 1 });
    const overallCat = (200 / 3 + 50 + 0) / 3;
    expect(cell.overallCatAccuracy!.value).toBeCloseTo(overallCat, 10);
    expect(cell.score.value).toBeCloseTo(overallCat, 10);
    expect(cell.successRate).toMatchObject({ value: 50, n: 6 });
  });

  it('scores OS by success rate and OA over the tasks present, naming the missing ones', () => {
    const row = computeScores(records, opts()).agentbench!.rows[0];
    expect(row.cells.OS.successRate).toMatchObject({ value: 75, n: 4 });
    expect(row.overall!.tasks).toEqual(['OS', 'DB']);
    expect(row.overall!.missing).toEqual(['KG', 'DCG', 'LTP', 'HH', 'WS', 'WB']);
    const overallCat = (200 / 3 + 50 + 0) / 3;
    expect(row.overall!.value.value).toBeCloseTo((75 / 10.8 + overallCat / 13) / 2, 10);
    expect(row.overall!.value.n).toBe(10);
  });

  it('gives the finish-reason mix per task set and overall, in Table 4’s order', () => {
    const row = computeScores(records, opts()).agentbench!.rows[0];
    const mix = (list: typeof row.finishReasons) => Object.fromEntries(list.map((f) => [f.label, [f.count, f.share.value]]));
    expect(row.finishReasons.map((f) => f.label).slice(0, 5)).toEqual([
      'Completed',
      'Context Limit Exceeded',
      'Invalid Format',
      'Invalid Action',
      'Task Limit Exceeded',
    ]);
    expect(mix(row.finishReasons)).toMatchObject({ Completed: [7, 70], 'Invalid Format': [2, 20], 'Task Limit Exceeded': [1, 10], 'Invalid Action': [0, 0] });
    expect(mix(row.cells.DB.finishReasons)).toMatchObject({ Completed: [4, (4 / 6) * 100], 'Invalid Format': [2, (2 / 6) * 100] });
  });

  it('counts an absent category as 0 in overall_cat_accuracy, as upstream, and says so', () => {
    const t = computeScores([db('counting', true), db('INSERT', true)], opts()).agentbench!;
    const cell = t.rows[0].cells.DB;
    expect(cell.overallCatAccuracy!.value).toBeCloseTo((100 + 100 + 0) / 3, 10);
    expect(cell.categories!.find((c) => c.category === 'UPDATE')!.accuracy).toMatchObject({ value: null, n: 0 });
    expect(t.notes.join(' ')).toMatch(/no UPDATE tasks; overall_cat_accuracy counts its accuracy as 0/);
  });
});

describe('AgentBoard', () => {
  it('counts a "check …" help action as valid in grounding accuracy, whatever was recorded', () => {
    const e = episode({
      env: 'babyai',
      task: 'b',
      kind: 'model',
      name: 'm',
      success: false,
      steps: [
        { action: 'check valid actions', valid: false, progress: 0 },
        { action: 'go forward', valid: true, progress: 0.5 },
        { action: 'fly away', valid: false, progress: 0.5 },
        { action: 'Check available actions', valid: true, progress: 0.5 },
      ],
    });
    const c = computeScores([e], opts()).agentboard!.rows[0].cells.BA;
    expect(c.groundingAccuracy.value).toBeCloseTo(75, 10);
    expect(c.progressRate.value).toBe(50);
    expect(c.successRate.value).toBe(0);
  });

  const ba = (difficulty: string, progress: number[], success: boolean) =>
    episode({ env: 'babyai', task: `b:${difficulty}`, kind: 'random', success, steps: progress.map((p) => ({ progress: p })) });

  it('splits progress and success over easy and hard problems', () => {
    const records = [ba('easy', [0.5], false), ba('easy', [0.5, 1], true), ba('hard', [0.25], false), ba('custom', [1], true)];
    const c = computeScores(records, opts()).agentboard!.rows[0].cells.BA;
    expect(c.easy).toMatchObject({ problems: 2, progressRate: { value: 75 }, successRate: { value: 50 } });
    expect(c.hard).toMatchObject({ problems: 1, progressRate: { value: 25 }, successRate: { value: 0 } });
    expect(c.progressRate.value).toBeCloseTo((0.5 + 1 + 0.25 + 1) * 25, 10);
    expect(c.successRate.value).toBe(50);
    // An empty split has no value (AgentBoard's log would print 0).
    const none = computeScores([ba('easy', [1], true)], opts()).agentboard!.rows[0].cells.BA.hard;
    expect(none).toMatchObject({ problems: 0, progressRate: { value: null, n: 0 } });
  });

  it('draws the progress-versus-step curve, each episode carried forward to the longest', () => {
    const records = [ba('easy', [0, 0.5, 1], true), ba('easy', [0.25, 0.25, 0.25, 0.5], false)];
    const t = computeScores(records, opts()).agentboard!;
    expect(t.sets[0]).toMatchObject({ key: 'BA', steps: 4 });
    expect(t.rows[0].cells.BA.curve.map((p) => p.progress.value)).toEqual([12.5, 37.5, 62.5, 75]);
    expect(t.rows[0].cells.BA.curve.map((p) => p.step)).toEqual([1, 2, 3, 4]);
  });

  it('averages over the task sets present, as Table 3’s Avg.', () => {
    const records = [
      ba('easy', [0.5], false),
      episode({ env: 'pddl', task: 'p:hard', kind: 'random', success: true, steps: [{ progress: 1 }] }),
      // Outside the paper's sets: scored as its own set, not in the average.
      episode({ env: 'babyai-own', task: 'x', kind: 'random', success: false, steps: [{ progress: 0 }] }),
    ];
    const t = computeScores(records, opts()).agentboard!;
    expect(t.sets.map((s) => s.key)).toEqual(['BA', 'PL', 'babyai-own']);
    expect(t.rows[0].cells['babyai-own'].progressRate.value).toBe(0);
    expect(t.rows[0].average).toMatchObject({ progressRate: { value: 75, n: 2 }, successRate: { value: 50 }, sets: ['BA', 'PL'] });
    const gpt4 = t.published.rows.find((r) => r.model === 'GPT-4')!;
    expect(gpt4.progressRate).toEqual([70.7, 81.2, null]);
    expect(gpt4.averagePresent.progressRate).toBeCloseTo((70.7 + 81.2) / 2, 10);
    expect(gpt4.paperAverage).toEqual({ progressRate: 70.0, successRate: 47.9 });
  });
});

describe('who played', () => {
  const records = [
    sp('Bandit', 10, { participant: 'ann' }),
    sp('Bandit', 20, { participant: 'ann', attempt: 2, startedAt: '2026-01-02T00:00:00Z' }),
    sp('Bandit', 30, { participant: 'bob', attempt: 1 }),
    sp('Bandit', 99, { participant: 'bob', practice: true }),
    sp('Bandit', 40, { kind: 'random' }),
    sp('Bandit', 50, { kind: 'oracle' }),
    sp('Bandit', 5, { kind: 'model', name: 'gpt' }),
    sp('Bandit', 7, { kind: 'model', name: 'llama' }),
    sp('Bandit', 1, { kind: 'model', name: 'llama', unfinished: true }),
    episode({ env: 'nowhere', task: 'x', score: 1 }),
  ];

  it('groups each person, humans pooled, random, oracle and each model; practice and unfinished left out', () => {
    const r = computeScores(records, opts());
    expect(r.groups.map((g) => [g.key, g.episodes])).toEqual([
      ['humans', 3],
      ['human:ann', 2],
      ['human:bob', 1],
      ['random', 1],
      ['oracle', 1],
      ['model:gpt', 1],
      ['model:llama', 1],
    ]);
    expect(r.groups[0].participants).toEqual(['ann', 'bob']);
    expect(r.skipped.map((s) => s.reason).sort()).toEqual(['practice', 'unfinished', 'unknown task']);
    expect(r.smartplay!.rows.find((x) => x.group.key === 'humans')!.cells.Bandit.score.value).toBe(20);
  });

  it('honours the researcher’s exclusions', () => {
    const r = computeScores(records, opts({ excluded: new Set([records[0].header.id, records[4].header.id]) }));
    expect(r.groups.map((g) => g.key)).not.toContain('random');
    expect(r.groups.find((g) => g.key === 'human:ann')!.episodes).toBe(1);
    expect(r.skipped.filter((s) => s.reason === 'excluded').map((s) => s.id)).toEqual([records[0].header.id, records[4].header.id]);
  });

  it('can count only each person’s first attempt', () => {
    const r = computeScores(records, opts({ firstAttemptOnly: true }));
    expect(r.groups.find((g) => g.key === 'human:ann')!.episodes).toBe(1);
    expect(r.smartplay!.rows.find((x) => x.group.key === 'human:ann')!.cells.Bandit.score.value).toBe(10);
    expect(r.skipped.filter((s) => s.reason === 'later attempt')).toHaveLength(1);
  });

  it('reads format v1 records (no participant) as unattributed human play', () => {
    const v1 = episode({ env: 'smartplay', task: 'Bandit', score: 3 });
    const f = episodeFacts(v1);
    expect(f).toMatchObject({ participant: undefined, practice: false, finished: true, score: 3, player: { kind: 'human' } });
    expect(computeScores([v1], opts()).groups.map((g) => g.key)).toEqual(['humans']);
  });
});

describe('intervals stratified where the benchmark averages over parts', () => {
  it('resample within each task set and category: constant parts give a point interval', () => {
    // Each part is constant, so only resampling across parts could move these figures.
    const m = { kind: 'model' as const, name: 'm' };
    const records = [
      ...episodes(3, { env: 'babyai', task: 'b:easy', ...m, success: false, steps: [{ progress: 0.5 }] }),
      ...episodes(5, { env: 'pddl', task: 'p:hard', ...m, success: true, steps: [{ progress: 1 }] }),
      ...episodes(4, { env: 'os', task: 'o', ...m, success: true }),
      ...episodes(2, { env: 'db', task: 'd:counting', ...m, success: true }),
      ...episodes(3, { env: 'db', task: 'd:INSERT', ...m, success: false }),
      ...episodes(2, { env: 'db', task: 'd:UPDATE', ...m, success: true }),
    ];
    const r = computeScores(records, opts());
    expect(r.agentboard!.rows[0].average!.progressRate).toEqual({ value: 75, n: 8, ci: [75, 75] });
    const db = r.agentbench!.rows[0].cells.DB;
    expect(db.overallCatAccuracy!.value).toBeCloseTo(200 / 3, 10);
    expect(db.overallCatAccuracy!.ci![1] - db.overallCatAccuracy!.ci![0]).toBeCloseTo(0, 10);
    const oa = r.agentbench!.rows[0].overall!.value;
    expect(oa.value).toBeCloseTo((100 / 10.8 + 200 / 3 / 13) / 2, 10);
    expect(oa.ci![1] - oa.ci![0]).toBeCloseTo(0, 10);
    // Even DB's pooled success rate (4 of 7) holds still: its rows are resampled within their categories.
    expect(db.successRate.value).toBeCloseTo(400 / 7, 10);
    expect(db.successRate.ci![1] - db.successRate.ci![0]).toBeCloseTo(0, 10);
    // Across episodes of one part the interval does open up.
    const mixed = computeScores([...episodes(3, { env: 'os', task: 'o', ...m, success: true }), ...episodes(3, { env: 'os', task: 'o', ...m, success: false })], opts());
    const os = mixed.agentbench!.rows[0].cells.OS.successRate;
    expect(os.ci![0]).toBeLessThan(50);
    expect(os.ci![1]).toBeGreaterThan(50);
  });
});

describe('report', () => {
  it('is the same for the same seed, and every figure carries n and an interval', () => {
    const records = [...episodes(5, { env: 'os', task: 'o', success: true }), ...episodes(5, { env: 'os', task: 'o', success: false })];
    const a = computeScores(records, opts({ seed: 7 }));
    const b = computeScores(records, opts({ seed: 7 }));
    expect(a).toEqual(b);
    const sr = a.agentbench!.rows[0].cells.OS.successRate;
    expect(sr.value).toBe(50);
    expect(sr.n).toBe(10);
    expect(sr.ci![0]).toBeLessThan(50);
    expect(sr.ci![1]).toBeGreaterThan(50);
  });
});

describe('episode points', () => {
  it('gives one point per counted episode, with its set, groups and AgentBoard figures', () => {
    const records = [
      sp('Bandit', 12, { participant: 'ann' }),
      sp('Bandit', 99, { participant: 'ann', practice: true }),
      episode({ env: 'pddl', task: 'p:easy', kind: 'model', name: 'm', success: false, steps: [{ progress: 0.5, valid: false }, { progress: 0.5 }] }),
      episode({ env: 'os', task: 'o', kind: 'random', success: true }),
    ];
    const points = episodePoints(records, opts());
    expect(points.map((p) => [p.set, p.groups, p.score, p.success])).toEqual([
      ['Bandit', ['humans', 'human:ann'], 12, null],
      ['PL', ['model:m'], 0, false],
      ['OS', ['random'], 0, true],
    ]);
    expect(points[1]).toMatchObject({ benchmark: 'AgentBoard', progressRate: 50, groundingAccuracy: 50, steps: 2 });
    expect(points[0].progressRate).toBeUndefined();
    expect(points[0].durationMs).toBeUndefined(); // no end recorded
    const timed = episode({ env: 'os', task: 'o', success: true });
    timed.header.endedAt = '2026-01-01T00:01:30.000Z';
    expect(episodePoints([timed], opts())[0].durationMs).toBe(90_000);
    // A study's active time (net of pauses) is the time on task when it was recorded.
    timed.header.time = { shownAt: 0, activeMs: 61_000, wallMs: 90_000 };
    expect(episodePoints([timed], opts())[0].durationMs).toBe(61_000);
  });
});
