import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EpisodeHeader, EpisodeRecord, Outcome, StepRecord } from '../../runtime/records.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { ImportError, MAX_IMPORT_BYTES, parseJsonl, serializeEpisode, toJsonl } from '../../runtime/jsonl.ts';

// --- test data -------------------------------------------------------------

function header(id: string, over: Partial<EpisodeHeader> = {}): EpisodeHeader {
  return {
    format: 2,
    id,
    env: 'hanoi',
    task: 'hanoi-3',
    seed: 7,
    driver: { kind: 'human', name: 'tester' },
    actors: [],
    view: 'text',
    maxSteps: 30,
    initialObservation: 'A: 3 2 1\nB:\nC:',
    startedAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:00:00.000Z',
    appVersion: '0.1.0',
    ...over,
  };
}

function step(episodeId: string, t: number, over: Partial<StepRecord> = {}): StepRecord {
  return {
    episodeId,
    t,
    action: `move ${t}`,
    observation: `state after ${t}`,
    valid: t % 2 === 1,
    reward: t === 3 ? 1 : 0,
    score: t * 0.5,
    terminated: false,
    truncated: false,
    progress: t / 10,
    view: t === 2 ? 'visual' : 'text',
    actor: { kind: 'human', name: 'tester' },
    ms: 100 + t,
    at: `2025-01-01T10:00:0${t}.000Z`,
    info: { matched: t, nested: { list: [1, 'two', null], ok: true } },
    ...over,
  };
}

function outcome(steps: number, over: Partial<Outcome> = {}): Outcome {
  return { score: 1.5, success: true, steps, finishReason: 'Complete', ...over };
}

/** A finished record with n steps, startedAt ordered by `minute`. */
function record(id: string, n: number, minute = 0): EpisodeRecord {
  const startedAt = `2025-01-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
  return {
    header: header(id, { startedAt, updatedAt: startedAt, endedAt: startedAt, outcome: outcome(n) }),
    steps: Array.from({ length: n }, (_, i) => step(id, i + 1)),
  };
}

/** Write an episode through the normal API, step by step. */
async function play(store: Store, id: string, n: number, minute = 0, finish = true): Promise<void> {
  const startedAt = `2025-01-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
  await store.createEpisode(header(id, { startedAt, updatedAt: startedAt }));
  for (let t = 1; t <= n; t++) await store.appendStep(step(id, t));
  if (finish) await store.finishEpisode(id, outcome(n), '2025-01-01T11:00:00.000Z');
}

function line(rec: EpisodeRecord): string {
  return serializeEpisode(rec);
}

/** The ImportError a call throws (fails the test if it throws something else or nothing). */
function importErrorOf(fn: () => unknown): ImportError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ImportError);
    return e as ImportError;
  }
  throw new Error('expected an ImportError');
}

// --- setup -----------------------------------------------------------------

let store: Store;
const opened: Store[] = [];

async function open(name?: string): Promise<Store> {
  const s = await openStore(name);
  opened.push(s);
  return s;
}

beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory(); // a fresh, empty database per test
  store = await open();
});

afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

// --- store -----------------------------------------------------------------

describe('store: recording episodes', () => {
  it('round-trips create/append/finish/get keeping every field exactly', async () => {
    const h = header('e1', { driver: { kind: 'model', name: 'gpt-x' }, view: 'visual', seed: 42.5 });
    await store.createEpisode(h);
    const steps = [step('e1', 1), step('e1', 2, { info: undefined, progress: undefined }), step('e1', 3)];
    for (const s of steps) await store.appendStep(s);
    const o = outcome(3, { success: null, finishReason: 'Given Up', score: -2 });
    await store.finishEpisode('e1', o, '2025-01-01T12:00:00.000Z');

    const got = await store.getEpisode('e1');
    expect(got).toEqual({
      header: { ...h, actors: [{ kind: 'human', name: 'tester' }], outcome: o, endedAt: '2025-01-01T12:00:00.000Z', updatedAt: '2025-01-01T12:00:00.000Z' },
      steps,
    });
  });

  it('appendStep updates the header updatedAt to the step time', async () => {
    await store.createEpisode(header('e1'));
    await store.appendStep(step('e1', 1, { at: '2025-01-01T10:05:00.000Z' }));
    expect((await store.getEpisode('e1'))?.header.updatedAt).toBe('2025-01-01T10:05:00.000Z');
  });

  it('appendSteps writes consecutive steps in one transaction, with the actors and updatedAt of the last', async () => {
    await store.createEpisode(header('e1'));
    await store.appendSteps([step('e1', 1)]);
    const batch = [step('e1', 2), step('e1', 3, { actor: { kind: 'random', name: 'random policy' }, at: '2025-01-01T10:09:00.000Z' })];
    await store.appendSteps(batch);
    const got = await store.getEpisode('e1');
    expect(got?.steps).toEqual([step('e1', 1), ...batch]);
    expect(got?.header.actors).toEqual([{ kind: 'human', name: 'tester' }, { kind: 'random', name: 'random policy' }]);
    expect(got?.header.updatedAt).toBe('2025-01-01T10:09:00.000Z');
    await store.appendSteps([]); // nothing to write
    expect((await store.getEpisode('e1'))?.steps).toHaveLength(3);
  });

  it('appendSteps writes all or none: a wrong first step number, a gap, another episode or a missing episode write nothing', async () => {
    await store.createEpisode(header('e1'));
    await store.appendSteps([step('e1', 1)]);
    const before = await store.getEpisode('e1');
    await expect(store.appendSteps([step('e1', 3), step('e1', 4)])).rejects.toThrow(/has 1 steps, so the next step is t=2, not t=3/);
    await expect(store.appendSteps([step('e1', 2), step('e1', 4)])).rejects.toThrow(/consecutive/);
    await expect(store.appendSteps([step('e1', 2), step('e2', 3)])).rejects.toThrow(/every step must belong/);
    await expect(store.appendSteps([step('e1', 1), step('e1', 2)])).rejects.toThrow(/next step is t=2, not t=1/);
    expect(await store.getEpisode('e1')).toEqual(before);
    await expect(store.appendSteps([step('ghost', 1), step('ghost', 2)])).rejects.toThrow(/no episode with id "ghost"/);
    expect(await store.getEpisode('ghost')).toBeUndefined();
    expect(await store.exportJsonl()).toBe(toJsonl([before!]));
  });

  it('appendSteps issued back to back land in order (IndexedDB orders the transactions)', async () => {
    await store.createEpisode(header('e1'));
    await Promise.all([store.appendSteps([step('e1', 1), step('e1', 2)]), store.appendSteps([step('e1', 3)]), store.appendSteps([step('e1', 4)])]);
    expect((await store.getEpisode('e1'))?.steps.map((s) => s.t)).toEqual([1, 2, 3, 4]);
  });

  it('keeps steps written one by one across closing and reopening the database', async () => {
    await play(store, 'e1', 4, 0, false);
    store.close();
    const again = await open();
    const got = await again.getEpisode('e1');
    expect(got?.steps.map((s) => s.t)).toEqual([1, 2, 3, 4]);
    expect(got?.steps[1]).toEqual(step('e1', 2));
    expect(got?.header.outcome).toBeUndefined();
    // and recording can carry on after the reopen
    await again.appendStep(step('e1', 5));
    expect((await again.getEpisode('e1'))?.steps).toHaveLength(5);
  });

  it('returns undefined for an unknown episode', async () => {
    expect(await store.getEpisode('nope')).toBeUndefined();
  });

  it('rejects appendStep on a missing episode', async () => {
    await expect(store.appendStep(step('ghost', 1))).rejects.toThrow(/no episode with id "ghost"/);
    expect(await store.listEpisodes()).toEqual([]);
  });

  it('rejects appendStep on a finished episode and writes nothing', async () => {
    await play(store, 'e1', 2);
    const before = await store.getEpisode('e1');
    await expect(store.appendStep(step('e1', 3))).rejects.toThrow(/already finished/);
    expect(await store.getEpisode('e1')).toEqual(before);
  });

  it('rejects a step number that is not the next one (no gaps, no overwrites)', async () => {
    await play(store, 'e1', 2, 0, false);
    await expect(store.appendStep(step('e1', 4))).rejects.toThrow(/next step is t=3/);
    await expect(store.appendStep(step('e1', 2, { action: 'overwrite' }))).rejects.toThrow(/next step is t=3/);
    expect((await store.getEpisode('e1'))?.steps[1].action).toBe('move 2');
  });

  it('rejects malformed records before writing', async () => {
    await expect(store.createEpisode(header('e1', { seed: Number.NaN }))).rejects.toThrow(/header\.seed/);
    await store.createEpisode(header('e1'));
    await expect(store.appendStep(step('e1', 1, { view: 'audio' as never }))).rejects.toThrow(/step\.view/);
    await expect(store.finishEpisode('e1', outcome(0, { finishReason: 'Bored' as never }), 'x')).rejects.toThrow(
      /outcome\.finishReason/,
    );
  });

  it('refuses to create an episode whose id is already stored', async () => {
    await play(store, 'e1', 1);
    const before = await store.getEpisode('e1');
    await expect(store.createEpisode(header('e1', { task: 'other' }))).rejects.toThrow(/already stored/);
    expect(await store.getEpisode('e1')).toEqual(before);
  });

  it('refuses to finish twice or with a wrong step count', async () => {
    await play(store, 'e1', 2, 0, false);
    await expect(store.finishEpisode('e1', outcome(3), 'x')).rejects.toThrow(/outcome\.steps is 3/);
    await store.finishEpisode('e1', outcome(2), 'end');
    await expect(store.finishEpisode('e1', outcome(2, { score: 9 }), 'later')).rejects.toThrow(/already finished/);
    expect((await store.getEpisode('e1'))?.header.outcome?.score).toBe(1.5);
    await expect(store.finishEpisode('ghost', outcome(0), 'x')).rejects.toThrow(/no episode/);
  });

  it('lists newest first and finds unfinished episodes', async () => {
    await play(store, 'old', 1, 1);
    await play(store, 'mid', 2, 2, false);
    await play(store, 'new', 1, 3);
    await play(store, 'newer', 0, 4, false);
    expect((await store.listEpisodes()).map((h) => h.id)).toEqual(['newer', 'new', 'mid', 'old']);
    expect((await store.unfinishedEpisodes()).map((h) => h.id)).toEqual(['newer', 'mid']);
  });

  it('deletes an episode with its steps and leaves the others alone', async () => {
    await play(store, 'a', 3, 1);
    await play(store, 'b', 2, 2);
    await store.deleteEpisode('a');
    expect(await store.getEpisode('a')).toBeUndefined();
    expect((await store.listEpisodes()).map((h) => h.id)).toEqual(['b']);
    // the steps are gone too: a new episode with the same id starts at t=1 and has only its own steps
    await store.createEpisode(header('a'));
    await store.appendStep(step('a', 1));
    expect((await store.getEpisode('a'))?.steps).toHaveLength(1);
    expect((await store.getEpisode('b'))?.steps).toHaveLength(2);
    await store.deleteEpisode('missing'); // no-op
  });
});

// --- export / import -------------------------------------------------------

describe('store: export and import', () => {
  it('export then import into a fresh database gives deep-equal records', async () => {
    await play(store, 'a', 3, 1);
    await play(store, 'b', 0, 2, false);
    await store.createEpisode(header('c', { startedAt: '2025-01-01T10:03:00.000Z', driver: { kind: 'script' } }));
    await store.appendStep(step('c', 1, { info: undefined }));
    const text = await store.exportJsonl();
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n')).toHaveLength(4); // three lines + trailing newline

    globalThis.indexedDB = new IDBFactory();
    const fresh = await open();
    expect(await fresh.importJsonl(text)).toEqual({ imported: 3, skipped: 0, taskFiles: [] });
    for (const id of ['a', 'b', 'c']) expect(await fresh.getEpisode(id)).toEqual(await store.getEpisode(id));
    expect(await fresh.listEpisodes()).toEqual(await store.listEpisodes());
    expect(await fresh.exportJsonl()).toBe(text);
  });

  it('keeps a verification mark on the header, exports it, and a re-import into a fresh database keeps it', async () => {
    await play(store, 'a', 2, 1);
    await play(store, 'b', 2, 2);
    const failed = { result: 'failed' as const, detail: 'diverges at step 2 (observation)', at: '2026-01-01T00:00:00.000Z' };
    await store.setVerification('a', failed);
    await expect(store.setVerification('nope', failed)).rejects.toThrow('no episode with id "nope"');
    const text = await store.exportJsonl();
    expect(parseJsonl(text).map((r) => r.header.verification)).toEqual([undefined, failed]);

    globalThis.indexedDB = new IDBFactory();
    const fresh = await open();
    expect(await fresh.importJsonl(text)).toEqual({ imported: 2, skipped: 0, taskFiles: [] });
    expect((await fresh.getEpisode('a'))?.header.verification).toEqual(failed);
    expect(await fresh.exportJsonl()).toBe(text);
    // A later pass replaces the mark; removing it leaves the header as it was recorded.
    await fresh.setVerification('a', undefined);
    const { verification: _mark, ...recorded } = (await store.getEpisode('a'))!.header;
    expect((await fresh.getEpisode('a'))?.header).toStrictEqual(recorded);
  });

  it('marks an earlier version kept in localStorage move onto the stored headers once', async () => {
    await play(store, 'a', 1, 1);
    await play(store, 'b', 1, 2);
    const kept = new Map<string, string>([['agentplay.verification-failed', JSON.stringify({ a: 'diverges at step 1 (observation)', gone: 'x' })]]);
    const storage = { getItem: (k: string) => kept.get(k) ?? null, removeItem: (k: string) => void kept.delete(k) };
    const before = (globalThis as { localStorage?: unknown }).localStorage;
    (globalThis as { localStorage?: unknown }).localStorage = storage;
    try {
      const { failedVerification, moveOldMarks } = await import('../../src/lib/verificationMarks.ts');
      expect(await moveOldMarks(store, await store.listEpisodes())).toBe(true);
      const [b, a] = await store.listEpisodes();
      expect([failedVerification(a), failedVerification(b)]).toEqual(['diverges at step 1 (observation)', null]);
      expect(kept.size).toBe(0);
      expect(await moveOldMarks(store, await store.listEpisodes())).toBe(false);
    } finally {
      (globalThis as { localStorage?: unknown }).localStorage = before;
    }
  });

  it('reads a header without a verification mark (files written before it) and one with it', () => {
    const plain = record('p', 1);
    const marked = record('m', 1);
    marked.header.verification = { result: 'skipped', detail: 'not verified on import: wall clock', at: '2026-01-01T00:00:00.000Z' };
    const [p, m] = parseJsonl(toJsonl([plain, marked]));
    expect('verification' in p.header).toBe(false);
    expect(m.header.verification).toEqual(marked.header.verification);
  });

  it('exports deterministically whatever order the objects were built in', async () => {
    const rec = record('a', 2);
    const shuffled: EpisodeRecord = {
      header: Object.fromEntries(Object.entries(rec.header).reverse()) as unknown as EpisodeHeader,
      steps: rec.steps.map(
        (s) =>
          ({
            ...Object.fromEntries(Object.entries(s).reverse()),
            info: { nested: { ok: true, list: [1, 'two', null] }, matched: s.t },
          }) as unknown as StepRecord,
      ),
    };
    expect(toJsonl([shuffled])).toBe(toJsonl([rec]));
    expect(JSON.parse(line(rec))).toEqual({ format: 'agentplay-episode', version: 2, ...rec });
  });

  it('exports only the selected ids', async () => {
    await play(store, 'a', 1, 1);
    await play(store, 'b', 1, 2);
    await play(store, 'c', 1, 3);
    const text = await store.exportJsonl(['c', 'a']);
    expect(parseJsonl(text).map((r) => r.header.id)).toEqual(['c', 'a']);
    expect(await store.exportJsonl([])).toBe('');
    await expect(store.exportJsonl(['a', 'zzz'])).rejects.toThrow(/zzz/);
  });

  it('is all-or-nothing: a bad 3rd line leaves the store exactly as before', async () => {
    await play(store, 'kept', 1, 0);
    const before = await store.listEpisodes();
    const bad = record('c', 1);
    bad.header.seed = 'seven' as never;
    const text = [line(record('a', 2, 1)), line(record('b', 1, 2)), line(bad), line(record('d', 1, 4))].join('\n');
    const err = await store.importJsonl(text).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).line).toBe(3);
    expect((err as ImportError).message).toMatch(/^Line 3: header\.seed: expected number/);
    expect(await store.listEpisodes()).toEqual(before);
    expect(await store.getEpisode('a')).toBeUndefined();
  });

  it('skips ids that are already stored and never overwrites them', async () => {
    await play(store, 'a', 2, 1);
    const mine = await store.getEpisode('a');
    const theirs = record('a', 1, 1);
    theirs.header.task = 'someone-else';
    const text = toJsonl([theirs, record('b', 1, 2)]);
    expect(await store.importJsonl(text)).toEqual({ imported: 1, skipped: 1, taskFiles: [] });
    expect(await store.getEpisode('a')).toEqual(mine);
    expect((await store.getEpisode('b'))?.steps).toHaveLength(1);
    // importing the same file again imports nothing new
    expect(await store.importJsonl(text)).toEqual({ imported: 0, skipped: 2, taskFiles: [] });
  });

  it('imports CRLF files with blank lines', async () => {
    const text = '\r\n' + line(record('a', 2, 1)) + '\r\n\r\n' + line(record('b', 1, 2)) + '\r\n';
    expect(await store.importJsonl(text)).toEqual({ imported: 2, skipped: 0, taskFiles: [] });
    expect(await store.getEpisode('a')).toEqual(record('a', 2, 1));
  });

  it('imports unfinished episodes (no outcome), which can then be continued', async () => {
    const rec = record('a', 2);
    delete rec.header.outcome;
    delete rec.header.endedAt;
    await store.importJsonl(line(rec));
    expect((await store.unfinishedEpisodes()).map((h) => h.id)).toEqual(['a']);
    await store.appendStep(step('a', 3));
  });
});

// --- parse errors ----------------------------------------------------------

describe('parseJsonl: errors name the first bad line', () => {
  const good = line(record('a', 2));

  it('bad JSON', () => {
    const err = importErrorOf(() => parseJsonl(`${good}\n\n{"format": nope}\n`));
    expect(err.line).toBe(3);
    expect(err.message).toMatch(/^Line 3: not valid JSON \(/);
  });

  it('wrong type, with the field path', () => {
    const rec = record('b', 3);
    (rec.steps[1] as unknown as Record<string, unknown>).reward = 'lots';
    const err = importErrorOf(() => parseJsonl(`${good}\n${line(rec)}`));
    expect(err.line).toBe(2);
    expect(err.message).toBe('Line 2: steps[1].reward: expected number, got "lots"');
  });

  it('missing field and nested field paths', () => {
    const rec = record('b', 1) as unknown as { header: Record<string, unknown> };
    delete rec.header.appVersion;
    expect(importErrorOf(() => parseJsonl(JSON.stringify({ format: 'agentplay-episode', version: 1, ...rec }))).message).toBe(
      'Line 1: header.appVersion: missing',
    );
    const rec2 = record('c', 0);
    rec2.header.driver.kind = 'alien' as never;
    expect(importErrorOf(() => parseJsonl(line(rec2))).message).toMatch(/^Line 1: header\.driver\.kind: expected .*"human"/);
  });

  it('info must be a plain object of JSON values', () => {
    const rec = record('b', 1);
    rec.steps[0].info = [1, 2] as never;
    expect(importErrorOf(() => parseJsonl(line(rec))).message).toBe('Line 1: steps[0].info: expected a plain object');
  });

  it('gap in t', () => {
    const rec = record('b', 3);
    rec.steps[2].t = 4;
    const err = importErrorOf(() => parseJsonl(`${good}\n${line(rec)}`));
    expect(err.line).toBe(2);
    expect(err.message).toMatch(/steps\[2\]\.t is 4, expected 3/);
  });

  it('wrong episodeId', () => {
    const rec = record('b', 2);
    rec.steps[1].episodeId = 'a';
    expect(importErrorOf(() => parseJsonl(line(rec))).message).toMatch(/^Line 1: steps\[1\]\.episodeId is "a" but header\.id is "b"/);
  });

  it('outcome.steps disagreeing with the steps', () => {
    const rec = record('b', 2);
    rec.header.outcome!.steps = 5;
    expect(importErrorOf(() => parseJsonl(line(rec))).message).toMatch(/outcome\.steps is 5 but the line holds 2 steps/);
  });

  it('unknown finishReason', () => {
    const rec = record('b', 1);
    rec.header.outcome!.finishReason = 'Bored' as never;
    const err = importErrorOf(() => parseJsonl(line(rec)));
    expect(err.message).toMatch(/^Line 1: header\.outcome\.finishReason: expected .*"Complete".* got "Bored"/);
  });

  it('non-finite numbers are rejected', () => {
    // JSON cannot hold Infinity, but 1e999 parses to it
    const text = line(record('b', 1)).replace('"seed":7', '"seed":1e999');
    expect(importErrorOf(() => parseJsonl(text)).message).toMatch(/^Line 1: header\.seed: expected a finite number/);
  });

  it('empty file', () => {
    for (const text of ['', '\n', ' \r\n\r\n']) {
      const err = importErrorOf(() => parseJsonl(text));
      expect(err.message).toBe('The file holds no episodes.');
      expect(err.line).toBe(0);
    }
  });

  it('duplicate id inside the file names the second line', () => {
    const err = importErrorOf(() => parseJsonl([good, line(record('b', 1)), '', line(record('a', 1))].join('\n')));
    expect(err.line).toBe(4);
    expect(err.message).toBe('Line 4: episode id "a" already appears on line 1');
  });

  it('unknown format or version', () => {
    const obj = JSON.parse(good);
    expect(importErrorOf(() => parseJsonl(JSON.stringify({ ...obj, format: 'other' }))).message).toMatch(
      /^Line 1: not an agentplay episode \(format is "other"/,
    );
    expect(importErrorOf(() => parseJsonl(JSON.stringify({ ...obj, version: 3 }))).message).toMatch(
      /^Line 1: episode format version 3 is not supported \(this app reads versions 1 and 2\)/,
    );
    expect(importErrorOf(() => parseJsonl('[1,2]')).message).toMatch(/^Line 1: expected a JSON object/);
  });

  it('files over the size limit are refused before parsing', async () => {
    const err = importErrorOf(() => parseJsonl('this is not even JSON', MAX_IMPORT_BYTES + 1));
    expect(err.message).toMatch(/50\.0 MB/);
    await expect(store.importJsonl(good, 60 * 1024 * 1024)).rejects.toThrow(/cannot be imported/);
    expect(await store.listEpisodes()).toEqual([]);
  });
});
