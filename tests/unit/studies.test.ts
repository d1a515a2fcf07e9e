import { describe, expect, it } from 'vitest';
import { mergeIntervals, netMs, pausedWithin, stepTiming } from '../../runtime/studies/timing.ts';
import { hashText, latinRow, latinSquare, planStudy, progressLabel, shuffleFor } from '../../runtime/studies/order.ts';
import { parseStudy, type Study } from '../../runtime/studies/schema.ts';
import { checkStudyTasks } from '../../runtime/studies/catalogue.ts';
import { cleanEpisodeSet, episodeKey, excludedEpisodeIds, participantKey, summarise } from '../../runtime/studies/clean.ts';
import { readFileSync, readdirSync } from 'node:fs';
import type { EpisodeRecord } from '../../runtime/records.ts';

describe('think time net of pauses', () => {
  it('subtracts a pause inside the step', () => {
    expect(stepTiming(1000, 5000, [{ from: 2000, to: 3000 }])).toEqual({ shownAt: 1000, sentAt: 5000, thinkMs: 3000, pausedMs: 1000 });
  });

  it('counts overlapping pauses once (idle while the tab is hidden)', () => {
    // hidden 2000–4000, idle 3000–6000, button 5500–5800 (inside idle): union 2000–6000.
    const pauses = [{ from: 2000, to: 4000 }, { from: 3000, to: 6000 }, { from: 5500, to: 5800 }];
    expect(mergeIntervals(pauses)).toEqual([{ from: 2000, to: 6000 }]);
    expect(stepTiming(1000, 10000, pauses).thinkMs).toBe(5000);
    expect(stepTiming(1000, 10000, pauses).pausedMs).toBe(4000);
  });

  it('clips pauses that started before the step was shown or end after the action', () => {
    const pauses = [{ from: 0, to: 1500 }, { from: 9000, to: 20000 }];
    expect(pausedWithin(1000, 10000, pauses)).toBe(1500);
    expect(netMs(1000, 10000, pauses)).toBe(7500);
  });

  it('ignores pauses outside the step, touching ones and empty ones; never goes negative', () => {
    expect(netMs(1000, 2000, [{ from: 0, to: 1000 }, { from: 2000, to: 3000 }, { from: 1500, to: 1500 }])).toBe(1000);
    expect(netMs(1000, 2000, [{ from: 0, to: 5000 }])).toBe(0);
    expect(netMs(2000, 1000, [])).toBe(0);
  });

  it('adds up across disjoint and chained pauses', () => {
    expect(mergeIntervals([{ from: 5, to: 6 }, { from: 1, to: 2 }, { from: 2, to: 3 }])).toEqual([{ from: 1, to: 3 }, { from: 5, to: 6 }]);
    expect(netMs(0, 10, [{ from: 5, to: 6 }, { from: 1, to: 2 }, { from: 2, to: 3 }])).toBe(7);
  });
});

const example = JSON.parse(readFileSync('public/studies/smartplay-v0.json', 'utf8'));
const studyOf = (patch: Record<string, unknown>): Study => {
  const r = parseStudy({ ...example, ...patch });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.study;
};

describe('order generation', () => {
  const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

  it('shuffles deterministically per participant, differently across participants', () => {
    expect(shuffleFor(items, 'p1')).toEqual(shuffleFor(items, 'p1'));
    expect([...shuffleFor(items, 'p1')].sort()).toEqual(items);
    const orders = new Set(['p1', 'p2', 'p3', 'p4', 'p5'].map((p) => shuffleFor(items, p).join('')));
    expect(orders.size).toBeGreaterThan(1);
  });

  it('a Latin square balances positions (each condition once per position), for even and odd sizes', () => {
    for (const n of [1, 2, 3, 4, 5, 6]) {
      const square = latinSquare(n);
      expect(square.length).toBe(n % 2 === 0 ? n : 2 * n);
      for (const row of square) expect([...row].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
      for (let pos = 0; pos < n; pos++) {
        const counts = new Array(n).fill(0);
        for (const row of square) counts[row[pos]]++;
        expect(new Set(counts).size).toBe(1); // every condition equally often at this position
      }
    }
  });

  it('an even Williams square also balances which condition follows which', () => {
    const square = latinSquare(4);
    const pairs = new Map<string, number>();
    for (const row of square) for (let i = 0; i + 1 < row.length; i++) pairs.set(`${row[i]}>${row[i + 1]}`, (pairs.get(`${row[i]}>${row[i + 1]}`) ?? 0) + 1);
    expect(pairs.size).toBe(12);
    expect([...pairs.values()].every((c) => c === 1)).toBe(true);
  });

  it('a participant gets the row named in the link, else one derived from the id', () => {
    expect(latinRow(4, 'anyone', 1)).toEqual(latinSquare(4)[1]);
    expect(latinRow(4, 'p9')).toEqual(latinSquare(4)[hashText('p9') % 4]);
  });

  it('plans practice first, then scored tasks with their attempts together, with seed rules', () => {
    const study = studyOf({});
    const plan = planStudy(study, 'P1');
    expect(plan.map((p) => [p.task, p.attempt, p.practice])).toEqual([
      ['hanoi-3', 1, true],
      ['bandits-highlow', 1, false], ['bandits-highlow', 2, false], ['bandits-highlow', 3, false],
      ['rps-basic', 1, false], ['rps-basic', 2, false], ['rps-basic', 3, false],
      ['hanoi-3', 1, false],
    ]);
    expect(progressLabel(plan, 0)).toBe('Practice 1 of 1');
    expect(progressLabel(plan, 3)).toBe('Task 3 of 7');
    const perAttempt = studyOf({ tasks: [{ env: 'rps', task: 'rps-basic', seed: { per: 'attempt', base: 10 }, attempts: 3 }] });
    expect(planStudy(perAttempt, 'x').map((p) => p.seed)).toEqual([10, 11, 12]);
    const perParticipant = studyOf({ tasks: [{ env: 'rps', task: 'rps-basic', seed: { per: 'participant' }, attempts: 2 }] });
    expect(planStudy(perParticipant, 'a')).toEqual(planStudy(perParticipant, 'a'));
    expect(planStudy(perParticipant, 'a')[0].seed).not.toBe(planStudy(perParticipant, 'b')[0].seed);
  });

  it('shuffled and Latin-square orders move whole tasks (attempts stay together), practice stays first', () => {
    for (const order of ['shuffled', 'latin-square']) {
      const study = studyOf({ order });
      for (const p of ['a', 'b', 'c', 'd', 'e']) {
        const plan = planStudy(study, p);
        expect(plan[0].practice).toBe(true);
        const tasks = plan.slice(1).map((x) => x.taskIndex);
        const runs = tasks.filter((t, i) => i === 0 || tasks[i - 1] !== t);
        expect(runs.length).toBe(3);
        expect(planStudy(study, p)).toEqual(plan);
      }
    }
  });
});

describe('study file validation', () => {
  const errorsOf = (patch: Record<string, unknown>): string[] => {
    const r = parseStudy({ ...example, ...patch });
    return r.ok ? [] : r.errors;
  };

  it('accepts the example study', () => {
    expect(parseStudy(example).ok).toBe(true);
    expect(parseStudy(JSON.stringify(example)).ok).toBe(true);
  });

  it('names the bad field', () => {
    expect(errorsOf({ title: 3 })).toEqual(['title: expected a title as text']);
    expect(errorsOf({ order: 'random' })[0]).toBe('order: expected "fixed", "shuffled" or "latin-square"');
    expect(errorsOf({ tasks: [{ env: 'hanoi', task: 'hanoi-3', attempts: 1.5 }] })[0]).toBe('tasks[0].attempts: expected a whole number');
    expect(errorsOf({ tasks: [{ env: 'hanoi', task: 'hanoi-3', seed: 'x' }] })[0]).toMatch(/^tasks\[0\]\.seed: expected a whole number or/);
    expect(errorsOf({ end: { message: 'Thanks', redirect: 'not a url' } })[0]).toMatch(/^end\.redirect: expected a full URL/);
    expect(errorsOf({ timeLimits: { taskSeconds: -1 } })[0]).toBe('timeLimits.taskSeconds: expected a positive number of seconds');
    expect(errorsOf({ consent: undefined })[0]).toBe('consent: missing');
    expect(errorsOf({ colour: 'red' })[0]).toBe('colour: unknown field');
    expect(errorsOf({ tasks: [{ env: 'hanoi', task: 'hanoi-3', practice: true }] })).toEqual(['tasks: expected at least one task that is not practice']);
    expect(parseStudy('{oops')).toMatchObject({ ok: false, errors: [expect.stringMatching(/^not JSON/)] });
    expect(errorsOf({ tasks: [{ env: 'os', task: 'os-dev-00', backend: 'docker' }] })[0]).toBe('tasks[0].backend: expected "embedded", "webcontainer" or "linux"');
  });

  it('a task may name the backend its episodes run on; the plan carries it', () => {
    const study = studyOf({ tasks: [{ env: 'os', task: 'os-test-5-new-02', backend: 'linux', attempts: 2 }, { env: 'hanoi', task: 'hanoi-3' }] });
    expect(planStudy(study, 'p').map((p) => p.backend)).toEqual(['linux', 'linux', undefined]);
  });
});

describe('study file checked against the task catalogue', () => {
  const tasksOf = (tasks: unknown[]): Study => studyOf({ tasks });

  it('accepts the example study and every task id or name the catalogue knows (also one resolved beyond the list)', async () => {
    expect(await checkStudyTasks(studyOf({}))).toEqual([]);
    expect(await checkStudyTasks(tasksOf([{ env: 'hanoi', task: 'Hanoi3Disk-v0' }, { env: 'babyai', task: 'babyai-GoToRedBall-seed42' }]))).toEqual([]);
  });

  it('names the field of an unknown task, with the environment\'s tasks', async () => {
    const study = tasksOf([
      { env: 'hanoi', task: 'hanoi-3' }, { env: 'rps', task: 'rps-basic' }, { env: 'bandits', task: 'bandits-highlow' },
      { env: 'hanoi', task: 'hanoi-99' },
    ]);
    expect(await checkStudyTasks(study)).toEqual(['tasks[3].task: unknown task "hanoi-99" (hanoi has hanoi-3, hanoi-4)']);
  });

  it('names the field of an unknown environment; a long task list is shortened', async () => {
    const errors = await checkStudyTasks(tasksOf([{ env: 'hano', task: 'hanoi-3' }, { env: 'os', task: 'os-nope' }]));
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^tasks\[0\]\.env: unknown environment "hano" \(known: hanoi, bandits, rps, /);
    expect(errors[1]).toMatch(/^tasks\[1\]\.task: unknown task "os-nope" \(os has os-dev-00, os-dev-01, os-dev-02 … \S+ \(\d+ tasks\)\)$/);
  });

  it('says when an environment cannot be loaded', async () => {
    const failing = { ids: () => ['broken'], load: () => Promise.reject(new Error('chunk missing')) };
    expect(await checkStudyTasks(tasksOf([{ env: 'broken', task: 'x' }]), failing)).toEqual(['tasks[0].env: environment "broken" could not be loaded: chunk missing']);
  });
});

describe('the study files served with the app', () => {
  const listed: string[] = JSON.parse(readFileSync('public/studies/index.json', 'utf8')).studies;

  it('are all listed for the Studies page, and each is valid and names only tasks the catalogue has', async () => {
    const files = readdirSync('public/studies').filter((f) => f.endsWith('.json') && f !== 'index.json').map((f) => f.slice(0, -'.json'.length));
    expect([...listed].sort()).toEqual(files.sort());
    for (const name of listed) {
      const parsed = parseStudy(readFileSync(`public/studies/${name}.json`, 'utf8'));
      if (!parsed.ok) throw new Error(`${name}: ${parsed.errors.join('; ')}`);
      expect(await checkStudyTasks(parsed.study)).toEqual([]);
    }
  });

  it('say only what they do: no results sent without an endpoint, no "sent back" without a redirect', () => {
    for (const name of listed) {
      const parsed = parseStudy(readFileSync(`public/studies/${name}.json`, 'utf8'));
      if (!parsed.ok) throw new Error(name);
      const { consent, instructions, end, results } = parsed.study;
      const texts = [consent, instructions, end.message].join('\n');
      if (!results.endpoint) {
        expect(texts).not.toMatch(/sent to the researcher/i);
        expect(texts).toMatch(/stay in this browser|saved in this browser/i);
        expect(texts).toMatch(/download/i);
      }
      if (!end.redirect) expect(texts).not.toMatch(/sent back|taken back|redirect/i);
    }
  });
});

describe('the clean episode set', () => {
  const rec = (id: string, participant: string, extra: Partial<EpisodeRecord['header']> = {}): EpisodeRecord => ({
    header: {
      format: 2, id, env: 'rps', task: 'rps-basic', seed: 1, driver: { kind: 'human' }, actors: [], view: 'text', maxSteps: 50, initialObservation: '', startedAt: id, updatedAt: id, appVersion: 't',
      participant, participantSource: 'link', attempt: 1, practice: false,
      outcome: { score: 1, success: null, steps: 0, finishReason: 'Complete' }, study: { id: 's', title: 'S', position: 1, of: 2 },
      ...extra,
    },
    steps: [],
  });

  it('keeps finished scored episodes of participants and episodes not excluded', () => {
    const records = [rec('e1', 'a'), rec('e2', 'a', { practice: true }), rec('e3', 'b'), rec('e4', 'c'), rec('e5', 'c', { outcome: undefined }), rec('e6', 'd')];
    const exclusions = [{ key: participantKey('b'), reason: 'pasted answers', at: '' }, { key: episodeKey('e6'), reason: 'left for 20 minutes', at: '' }];
    expect(cleanEpisodeSet(records, exclusions).map((r) => r.header.id)).toEqual(['e1', 'e4']);
    expect(cleanEpisodeSet(records, [], 'other')).toEqual([]);
    const rows = summarise(records);
    expect(rows.map((r) => [r.participant, r.episodes, r.finished, r.practice])).toEqual([['a', 2, 2, 1], ['b', 1, 1, 0], ['c', 2, 1, 0], ['d', 1, 1, 0]]);
  });

  it('names the episodes the exclusions leave out, for the scores view', () => {
    const records = [rec('e1', 'a'), rec('e3', 'b'), rec('e7', 'b'), rec('e6', 'd')];
    const exclusions = [{ key: participantKey('b'), reason: 'pasted answers', at: '' }, { key: episodeKey('e6'), reason: 'left for 20 minutes', at: '' }];
    expect([...excludedEpisodeIds(records, exclusions)].sort()).toEqual(['e3', 'e6', 'e7']);
    expect(excludedEpisodeIds(records, []).size).toBe(0);
  });
});
