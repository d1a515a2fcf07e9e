/** The scores view's episode filter and the choices it offers. */
import { describe, expect, it } from 'vitest';
import { describeFilter, facetsOf, matches, NO_FILTER } from '../../src/scores/selection.ts';
import { episode } from './scores-episodes.ts';
import { slimEpisode } from '../../src/scores/readEpisodes.ts';

const records = [
  episode({ env: 'hanoi', task: 'hanoi-3', participant: 'ann', startedAt: '2026-03-01T10:00:00.000Z' }),
  episode({ env: 'hanoi', task: 'hanoi-4', kind: 'random', startedAt: '2026-03-02T10:00:00.000Z' }),
  episode({ env: 'bandits', task: 'bandits-highlow', kind: 'model', name: 'm1', startedAt: '2026-03-05T23:59:00.000Z' }),
  episode({ env: 'os', task: 'os-dev-00', kind: 'model', name: 'm2', startedAt: '2026-02-27T00:00:00.000Z' }),
];
const pick = (f: Partial<typeof NO_FILTER>) => records.filter((r) => matches(r.header, { ...NO_FILTER, ...f })).map((r) => r.header.task);

describe('scores selection', () => {
  it('offers the values present', () => {
    expect(facetsOf(records)).toEqual({
      episodes: 4,
      envs: ['bandits', 'hanoi', 'os'],
      tasks: ['bandits/bandits-highlow', 'hanoi/hanoi-3', 'hanoi/hanoi-4', 'os/os-dev-00'],
      kinds: ['human', 'model', 'random'],
      models: ['m1', 'm2'],
      participants: ['ann'],
      studies: [],
      days: ['2026-02-27', '2026-03-05'],
      failedVerification: 0,
    });
  });

  it('filters by environment, task, player, model, participant and day (inclusive)', () => {
    expect(pick({})).toHaveLength(4);
    expect(pick({ envs: ['hanoi'] })).toEqual(['hanoi-3', 'hanoi-4']);
    expect(pick({ tasks: ['hanoi/hanoi-4', 'os/os-dev-00'] })).toEqual(['hanoi-4', 'os-dev-00']);
    expect(pick({ kinds: ['model'] })).toEqual(['bandits-highlow', 'os-dev-00']);
    expect(pick({ models: ['m2'] })).toEqual(['os-dev-00']);
    expect(pick({ participants: ['ann'] })).toEqual(['hanoi-3']);
    expect(pick({ from: '2026-03-01', to: '2026-03-05' })).toEqual(['hanoi-3', 'hanoi-4', 'bandits-highlow']);
    expect(pick({ envs: ['hanoi'], kinds: ['random'] })).toEqual(['hanoi-4']);
  });

  it('filters by the study an episode was recorded in, and offers each study once', () => {
    const inStudy = (id: string, title: string, task: string) => {
      const r = episode({ env: 'hanoi', task, participant: 'p' });
      r.header.study = { id, title, position: 1, of: 2 };
      return r;
    };
    const mixed = [...records, inStudy('pilot-1', 'Pilot', 'hanoi-3'), inStudy('main-2', 'Main study', 'hanoi-4'), inStudy('pilot-1', 'Pilot', 'hanoi-4')];
    expect(facetsOf(mixed).studies).toEqual([
      { id: 'main-2', title: 'Main study' },
      { id: 'pilot-1', title: 'Pilot' },
    ]);
    const tasks = (study?: string) => mixed.filter((r) => matches(r.header, { ...NO_FILTER, study })).map((r) => r.header.task);
    expect(tasks('pilot-1')).toEqual(['hanoi-3', 'hanoi-4']);
    expect(tasks('main-2')).toEqual(['hanoi-4']);
    expect(tasks(undefined)).toHaveLength(7);
    expect(describeFilter({ ...NO_FILTER, study: 'pilot-1' }, 'Pilot')).toBe('study Pilot');
  });

  it('counts the episodes that failed verification (the mark their header carries) and can leave them out', () => {
    const at = '2026-03-01T00:00:00.000Z';
    const marked = [
      episode({ env: 'hanoi', task: 'hanoi-3' }, 'v-ok'),
      episode({ env: 'hanoi', task: 'hanoi-3' }, 'v-failed'),
      episode({ env: 'os', task: 'os-dev-00' }, 'v-skipped'),
    ];
    marked[0].header.verification = { result: 'verified', at };
    marked[1].header.verification = { result: 'failed', detail: 'diverges at step 2 (observation)', at };
    marked[2].header.verification = { result: 'skipped', detail: 'not verified on import: …', at };
    const slim = marked.map(slimEpisode);
    expect(facetsOf(slim).failedVerification).toBe(1);
    const ids = (f: Partial<typeof NO_FILTER>) => slim.filter((r) => matches(r.header, { ...NO_FILTER, ...f })).map((r) => r.header.id);
    expect(ids({})).toEqual(['v-ok', 'v-failed', 'v-skipped']);
    expect(ids({ withoutFailedVerification: true })).toEqual(['v-ok', 'v-skipped']);
    expect(describeFilter({ ...NO_FILTER, withoutFailedVerification: true })).toBe('without episodes that failed verification');
  });

  it('describes the filter in words', () => {
    expect(describeFilter(NO_FILTER)).toBe('all episodes');
    expect(describeFilter({ ...NO_FILTER, kinds: ['model'], from: '2026-03-01' })).toBe('player model; 2026-03-01 to …');
  });
});
