/**
 * Fields an import does not know are not stored, and the import says so (issue 16 item 10:
 * they were dropped without a word): each one is named with its line, in the result the
 * store returns and in the notice the Episodes view shows.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ignoredFieldsNotice, parseExportFile, parseJsonl, serializeEpisode, unknownFields, LineSchema } from '../../runtime/jsonl.ts';
import type { EpisodeRecord } from '../../runtime/records.ts';
import { openStore } from '../../src/store/store.ts';

const V1 = readFileSync(new URL('../fixtures/v1/episodes.jsonl', import.meta.url), 'utf8');

/** The fixture's episodes as version 2 lines, parsed to plain objects to add fields to. */
function lines(): Record<string, any>[] {
  return parseJsonl(V1).map((r: EpisodeRecord) => JSON.parse(serializeEpisode(r)));
}

describe('unknown fields on import', () => {
  it('a file written by this app has none (version 1 migrated, version 2 as exported)', () => {
    expect(parseExportFile(V1).ignored).toEqual([]);
    const v2 = lines().map((l) => JSON.stringify(l)).join('\n');
    expect(parseExportFile(v2).ignored).toEqual([]);
  });

  it('names each unknown field with its path and line, at any known level', () => {
    const [a, b] = lines();
    a.foo = 1;
    a.header.colour = 'red';
    a.steps[0].actor.mood = 'calm';
    a.steps[0].model.calls[0].extra = true;
    b.header.driver['api key'] = 'x';
    b.steps[0].info = { anything: { goes: 1 } }; // free-form step facts are kept, not judged
    const { episodes: records, ignored } = parseExportFile(`${JSON.stringify(a)}\n\n${JSON.stringify(b)}\n`);
    expect(ignored).toEqual([
      { line: 1, fields: ['foo', 'header.colour', 'steps[0].actor.mood', 'steps[0].model.calls[0].extra'] },
      { line: 3, fields: ['header.driver["api key"]'] },
    ]);
    // And none of them is kept.
    expect(JSON.stringify(records)).not.toMatch(/colour|mood|extra|api key|"foo"/);
    expect(records[1].steps[0].info).toEqual({ anything: { goes: 1 } });
    expect(ignoredFieldsNotice(ignored)).toBe(
      '5 unknown fields ignored: foo (line 1), header.colour (line 1), steps[0].actor.mood (line 1), steps[0].model.calls[0].extra (line 1), header.driver["api key"] (line 3).',
    );
  });

  it('the notice names at most five and counts the rest; none when there are none', () => {
    const ignored = [{ line: 2, fields: ['a', 'b', 'c'] }, { line: 4, fields: ['d', 'e', 'f', 'g'] }];
    expect(ignoredFieldsNotice(ignored)).toBe('7 unknown fields ignored: a (line 2), b (line 2), c (line 2), d (line 4), e (line 4), and 2 more.');
    expect(ignoredFieldsNotice([{ line: 1, fields: ['x'] }])).toBe('1 unknown field ignored: x (line 1).');
    expect(ignoredFieldsNotice([])).toBeNull();
  });

  it('a deeply nested unknown field is named without walking into it', () => {
    const [a] = lines();
    const text = JSON.stringify(a).replace(/}$/, `,"deep":${'['.repeat(20_000)}${']'.repeat(20_000)}}`);
    expect(parseExportFile(text).ignored).toEqual([{ line: 1, fields: ['deep'] }]);
    expect(unknownFields(LineSchema, JSON.parse(text))).toEqual(['deep']);
  });

  it('the store imports the known fields and returns the unknown ones', async () => {
    globalThis.indexedDB = new IDBFactory();
    const store = await openStore();
    const [a, b] = lines();
    a.header.colour = 'red';
    const result = await store.importJsonl(`${JSON.stringify(a)}\n${JSON.stringify(b)}\n`);
    expect(result).toEqual({ imported: 2, skipped: 0, taskFiles: [], ignored: [{ line: 1, fields: ['header.colour'] }] });
    expect(await store.getEpisode(a.header.id)).not.toHaveProperty('header.colour');
    // A clean file's result has no ignored list at all.
    globalThis.indexedDB = new IDBFactory();
    const fresh = await openStore();
    expect(await fresh.importJsonl(`${JSON.stringify(b)}\n`)).toEqual({ imported: 1, skipped: 0, taskFiles: [] });
    store.close();
    fresh.close();
  });
});
