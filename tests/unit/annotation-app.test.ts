/**
 * The app side of annotation (issue 13): the IndexedDB version 3 block keeps every
 * episode, the annotation store keeps sets (never overwritten), flags, studies, ratings,
 * drafts and the chosen set; the editor's one-line matcher syntax; a task's sets include
 * AgentBoard's built-in version 1; progress recorded under a chosen set.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.ts';
import { openAnnotationStore } from '../../src/store/annotations.ts';
import { builtinSetFor, draftAsSet, emptyDraft, latestByAuthor, matcherText, parseMatcherText, setsOfTask } from '../../src/lib/annotation.ts';
import { newSet, rescore, prepareEpisodes, episodeFromRecords, type SubgoalSet } from '../../src/lib/annotationCore.ts';
import { progressRecorder, scoreHistory } from '../../src/lib/progressUnderSet.ts';
import { getTask, loadEnv } from '../../envs/index.ts';
import { Rng } from '../../envs/core/rng.ts';
import type { EpisodeHeader, StepRecord } from '../../runtime/records.ts';

const AT = '2025-01-01T10:00:00.000Z';

function header(id: string, task = 'hanoi-3', startedAt = AT): EpisodeHeader {
  return { format: 2, id, env: 'hanoi', task, seed: 1, driver: { kind: 'human' }, actors: [], view: 'text', maxSteps: 30, initialObservation: 'start', startedAt, updatedAt: startedAt, appVersion: 't' };
}

function step(episodeId: string, t: number, observation: string): StepRecord {
  return { episodeId, t, action: `a${t}`, observation, valid: true, reward: 0, score: 0, terminated: false, truncated: false, view: 'text', actor: { kind: 'human' }, ms: 0, at: AT };
}

function set(author: string, version: number, patterns: string[]): SubgoalSet {
  return newSet('hanoi', 'hanoi-3', author, version, patterns.map((p) => ({ label: p, matcher: { kind: 'pattern', pattern: p } })), 'subgoal', new Date(AT));
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

describe('IndexedDB version 3 (annotation)', () => {
  it('upgrades a version 2 database keeping every episode, and adds the annotation stores', async () => {
    const old = await openDB('agentplay', 2, {
      upgrade(db) {
        db.createObjectStore('episodes', { keyPath: 'id' }).createIndex('by-startedAt', 'startedAt');
        db.createObjectStore('steps', { keyPath: ['episodeId', 't'] }).createIndex('by-episode', 'episodeId');
        db.createObjectStore('annotations', { keyPath: 'id' }).createIndex('by-task', 'task');
        db.createObjectStore('settings');
      },
    });
    await old.put('episodes', header('kept'));
    await old.put('steps', step('kept', 1, 'one'));
    old.close();

    const annotations = await openAnnotationStore();
    const store = await openStore();
    expect(await store.getEpisode('kept')).toEqual({ header: header('kept'), steps: [step('kept', 1, 'one')] });
    await annotations.addSet(set('alice', 1, ['one']));
    expect((await annotations.listSets('hanoi', 'hanoi-3')).map((s) => s.author)).toEqual(['alice']);
    store.close();
    annotations.close();
  });
});

describe('the annotation store', () => {
  it('keeps each version once: a stored version is never replaced, imports skip it', async () => {
    const a = await openAnnotationStore();
    await a.addSet(set('alice', 1, ['one']));
    await expect(a.addSet(set('bob', 1, ['two']))).rejects.toThrow();
    expect(await a.importSets([set('bob', 1, ['two']), set('bob', 2, ['two'])])).toEqual({ imported: 1, skipped: 1 });
    const sets = await a.listSets('hanoi', 'hanoi-3');
    expect(sets.map((s) => [s.version, s.author])).toEqual([
      [1, 'alice'],
      [2, 'bob'],
    ]);
    expect(await a.listSets('hanoi', 'hanoi-4')).toEqual([]);
    await expect(a.addSet({ ...set('carol', 3, []), version: 0 })).rejects.toThrow(/version/);
    a.close();
  });

  it('keeps flags per task, ratings per study (a later rating replaces the earlier), drafts per annotator and the chosen set', async () => {
    const a = await openAnnotationStore();
    await a.addFlag({ id: 'f1', envTask: 'hanoi/hanoi-3', episodeId: 'e', step: 2, note: 'too early', author: 'alice', set: 'hanoi/hanoi-3/v1', progress: 0.5, createdAt: AT });
    expect((await a.listFlags('hanoi', 'hanoi-3')).map((f) => f.note)).toEqual(['too early']);
    expect(await a.listFlags('hanoi', 'hanoi-4')).toEqual([]);

    await a.addStudy({ id: 's', envTask: 'hanoi/hanoi-3', trajectories: ['e1', 'e2'], seed: 1, createdAt: AT });
    await a.putRating({ id: 's/e1/alice', study: 's', trajectory: 'e1', rater: 'alice', value: 25, at: AT });
    await a.putRating({ id: 's/e1/alice', study: 's', trajectory: 'e1', rater: 'alice', value: 75, at: AT });
    expect((await a.listRatings('s')).map((r) => r.value)).toEqual([75]);
    expect((await a.listStudies('hanoi', 'hanoi-3')).map((s) => s.trajectories)).toEqual([['e1', 'e2']]);

    const draft = { ...emptyDraft('hanoi', 'hanoi-3', 'alice'), subgoals: [{ label: 'x', matcher: { kind: 'pattern' as const, pattern: 'x' } }] };
    await a.putDraft(draft);
    expect(await a.getDraft('hanoi', 'hanoi-3', 'alice')).toEqual(draft);
    expect(await a.getDraft('hanoi', 'hanoi-3', 'bob')).toBeUndefined();

    expect(await a.getScoringSet('hanoi', 'hanoi-3')).toBeUndefined();
    await a.setScoringSet('hanoi', 'hanoi-3', 'hanoi/hanoi-3/v1');
    expect(await a.getScoringSet('hanoi', 'hanoi-3')).toBe('hanoi/hanoi-3/v1');
    await a.setScoringSet('hanoi', 'hanoi-3', undefined);
    expect(await a.getScoringSet('hanoi', 'hanoi-3')).toBeUndefined();
    a.close();
  });

  it("reads a task's episodes with their steps in order, and no other task's", async () => {
    const store = await openStore();
    await store.createEpisode(header('old', 'hanoi-3', '2025-01-01T10:00:00.000Z'));
    await store.createEpisode(header('new', 'hanoi-3', '2025-01-02T10:00:00.000Z'));
    await store.createEpisode(header('other', 'hanoi-4'));
    for (const t of [1, 2, 3]) await store.appendStep(step('old', t, `o${t}`));
    await store.appendStep(step('other', 1, 'x'));
    const a = await openAnnotationStore();
    const got = await a.episodesOfTask('hanoi', 'hanoi-3');
    expect(got.map((r) => r.header.id)).toEqual(['new', 'old']);
    expect(got[1].steps.map((s) => s.t)).toEqual([1, 2, 3]);
    expect(got[0].steps).toEqual([]);
    store.close();
    a.close();
  });
});

describe("the editor's matcher syntax", () => {
  it('reads patterns, regexes, predicates and alternatives, and writes them back the same', () => {
    for (const text of ['There is a red ball ** 1 steps away', '/rod [ab]$/i', '@goal-literal text="on a b"', '@carrying type="key" color=null', 'you pick up || /carry(ing)?/']) {
      const m = parseMatcherText(text);
      expect(typeof m).not.toBe('string');
      expect(matcherText(m as Exclude<typeof m, string>)).toBe(text);
    }
    expect(parseMatcherText('/x/i')).toEqual({ kind: 'regex', source: 'x', flags: 'i' });
    expect(parseMatcherText('a || b')).toEqual({ kind: 'any', of: [{ kind: 'pattern', pattern: 'a' }, { kind: 'pattern', pattern: 'b' }] });
    expect(parseMatcherText('@facing type="door" state="open"')).toEqual({ kind: 'predicate', name: 'facing', params: { type: 'door', state: 'open' } });
    // A Hanoi observation's single bars stay inside a pattern.
    expect(parseMatcherText('C: |bottom, [2, 1, 0], top|')).toEqual({ kind: 'pattern', pattern: 'C: |bottom, [2, 1, 0], top|' });
  });

  it('refuses what cannot be a matcher, saying why', () => {
    expect(parseMatcherText('/(unclosed/')).toMatch(/does not compile/);
    expect(parseMatcherText('/x/g')).toMatch(/flags may be i, m, s, u/);
    expect(parseMatcherText('a ||  || b')).toMatch(/cannot be empty/);
    expect(parseMatcherText('   ')).toMatch(/cannot be empty/);
  });
});

describe("a task's sets", () => {
  it("start with AgentBoard's built-in version 1 where the task has one", async () => {
    expect(await builtinSetFor('hanoi', 'hanoi-3')).toBeNull();
    const b = await builtinSetFor('babyai', 'babyai-3');
    expect(b).toMatchObject({ env: 'babyai', task: 'babyai-3', author: 'agentboard', version: 1 });
    expect((await builtinSetFor('pddl', 'pddl-0'))?.crediting).toBe('match');

    const a = await openAnnotationStore();
    await a.addSet({ ...b!, author: 'alice', version: 2, parentVersion: 1 });
    const sets = await setsOfTask(a, 'babyai', 'babyai-3');
    expect(sets.map((s) => [s.author, s.version])).toEqual([
      ['agentboard', 1],
      ['alice', 2],
    ]);
    expect(latestByAuthor([...sets, { ...sets[1], version: 3 }]).map((s) => [s.author, s.version])).toEqual([
      ['agentboard', 1],
      ['alice', 3],
    ]);
    a.close();
  });

  it('a draft scores like the set it is saved as', () => {
    const draft = { ...emptyDraft('hanoi', 'hanoi-3', 'alice'), subgoals: set('alice', 1, ['two', 'four']).subgoals };
    const saved = draftAsSet(draft, 1);
    const episodes = prepareEpisodes([episodeFromRecords(header('e'), [step('e', 1, 'one'), step('e', 2, 'two'), step('e', 3, 'four')])]);
    expect(rescore(saved, episodes).episodes[0].progress).toEqual([0, 0.5, 1]);
    expect(saved).toMatchObject({ author: 'alice', version: 1, parentVersion: null });
  });
});

describe('progress under the chosen set', () => {
  it('is recorded only when a set is chosen, as the set scores the steps so far', async () => {
    const a = await openAnnotationStore();
    expect(await progressRecorder('hanoi', 'hanoi-3', () => 'start')).toBeUndefined();
    await a.addSet(set('alice', 1, ['two', 'four']));
    await a.setScoringSet('hanoi', 'hanoi-3', 'hanoi/hanoi-3/v1');
    const extras = await progressRecorder('hanoi', 'hanoi-3', () => 'start');
    const history = ['one', 'two', 'three', 'four'].map((observation) => ({ action: 'x', valid: true, observation }));
    expect([0, 1, 2, 3].map((i) => extras!(history, i))).toEqual([0, 0.5, 0.5, 1].map((progress) => ({ subgoalProgress: { set: 'hanoi/hanoi-3/v1', progress } })));
    a.close();
  });
});

describe('checking by playing: the draft and the game panel count the same way', () => {
  it("AgentBoard's own set scores a played BabyAI history as the game does at every step; a draft with one more subgoal divides by one more", async () => {
    const env = await loadEnv('babyai');
    const builtin = (await builtinSetFor('babyai', 'babyai-0'))!;
    const extra = { ...builtin, subgoals: [...builtin.subgoals, { label: 'a purple dragon', matcher: { kind: 'pattern' as const, pattern: 'purple dragon' } }] };
    const rng = Rng.fromSeed(7);
    const rand = () => rng.uniform();
    for (let game = 0; game < 5; game++) {
      const task = getTask(env, `babyai-${game}`);
      const own = (await builtinSetFor('babyai', task.id))!;
      const init = env.reset(task, 0) as { state: unknown; observation: string };
      let state = init.state;
      const history: { action: string; valid: boolean; observation: string; progress: number }[] = [];
      for (let t = 0; t < 25; t++) {
        // Valid actions mostly, sometimes a help action or an invalid one (neither is credited).
        const valid = env.validActions(state as never);
        const action = rand() < 0.1 ? 'check available actions' : rand() < 0.1 ? 'fly away' : valid[Math.floor(rand() * valid.length)];
        const r = env.step(state as never, action) as { state: unknown; observation: string; valid: boolean; progress: number; terminated: boolean };
        state = r.state;
        history.push({ action, valid: r.valid, observation: r.observation, progress: r.progress });
        if (r.terminated) break;
      }
      expect(scoreHistory('babyai', own, init.observation, history).progress).toEqual(history.map((h) => h.progress));
    }
    // The reported 20% against 25%: the same play, the draft counting one subgoal more (here 1 of 3 against the game's 1 of 2).
    const task = getTask(env, 'babyai-0');
    const init = env.reset(task, 0) as { state: unknown; observation: string };
    const r = env.step(init.state as never, 'turn left') as { observation: string; valid: boolean; progress: number };
    expect(r.progress).toBe(0.5);
    expect(scoreHistory('babyai', extra, init.observation, [{ action: 'turn left', valid: r.valid, observation: r.observation }]).progress).toEqual([1 / 3]);
  });
});
