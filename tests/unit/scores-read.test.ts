/**
 * The scores view's file reading: pieces cut at line ends (filePool.lineCuts) and read apart
 * (readEpisodes.readLines) give the episodes and line numbers of the whole file, and the slim
 * episodes carry the same facts as the whole ones.
 */
import { describe, expect, it } from 'vitest';
import { parseExportFile, toJsonl } from '../../runtime/jsonl.ts';
import { episodeFacts } from '../../runtime/scores/index.ts';
import { lineCuts } from '../../src/scores/filePool.ts';
import { LineError, readLines, slimEpisode } from '../../src/scores/readEpisodes.ts';
import { goldenRecords } from './scores-golden.ts';

const records = goldenRecords(300);
// A blank line, CRLF ends and a non-ASCII observation, as real exports may have.
const text = toJsonl(records).replace('\n', '\n\n').replace(/\n(?=\{)/g, (m, at: number) => (at % 3 === 0 ? '\r\n' : m)).replace('You see a wall.', 'Vous voyez un mur — ✓');
const blob = new Blob([text]);

describe('scores file reading', () => {
  it('cuts at line ends only, and the pieces read apart give the whole file', async () => {
    for (const parts of [1, 2, 3, 7, 50]) {
      const cuts = await lineCuts(blob, parts);
      expect(cuts[0]).toBe(0);
      expect(cuts.at(-1)).toBe(blob.size);
      const bytes = new Uint8Array(await blob.arrayBuffer());
      for (const c of cuts.slice(1, -1)) expect(bytes[c - 1]).toBe(10);
      const pieces = await Promise.all(cuts.slice(0, -1).map((c, k) => blob.slice(c, cuts[k + 1]).text()));
      const read = pieces.map((p) => readLines(p));
      expect(read.flatMap((r) => r.episodes.map((e) => e.header.id))).toEqual(records.map((r) => r.header.id));
      expect(read.reduce((a, r) => a + r.lines, 0)).toBe(text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
    }
  });

  it('numbers a bad line within its piece, so the pieces before it give its line in the file', async () => {
    const lines = text.split('\n');
    lines[200] = '{"format":"agentplay-episode","version":2,"header":{}}';
    const bad = new Blob([lines.join('\n')]);
    const cuts = await lineCuts(bad, 4);
    let before = 0;
    let found = '';
    for (let k = 0; k + 1 < cuts.length && !found; k++) {
      try {
        before += readLines(await bad.slice(cuts[k], cuts[k + 1]).text()).lines;
      } catch (e) {
        expect(e).toBeInstanceOf(LineError);
        found = `line ${before + (e as LineError).line}: ${(e as LineError).message}`;
      }
    }
    expect(found).toMatch(/^line 201: header\./);
  });

  it('keeps the facts scoring reads, and the filter fields with the study', () => {
    const r = records[5];
    r.header.study = { id: 'pilot', title: 'Pilot', position: 1, of: 3 };
    const slim = slimEpisode(r);
    expect(slim.facts).toEqual(episodeFacts(r));
    expect(slim.header).toEqual({ id: r.header.id, env: r.header.env, task: r.header.task, driver: r.header.driver, startedAt: r.header.startedAt, ...(r.header.participant ? { participant: r.header.participant } : {}), study: { id: 'pilot', title: 'Pilot' } });
  });

  it('packs each episode\'s step facts as the whole record gives them', () => {
    const read = readLines(text);
    expect(read.episodes.map((e) => e.facts)).toEqual(records.map(episodeFacts));
    // Views into the piece's two buffers, which the parsing worker transfers.
    expect(new Set(read.episodes.map((e) => e.facts.steps.progress.buffer))).toEqual(new Set([read.buffers[1]]));
  });

  /** The text with line `n` (1-based) changed by `edit`. */
  const withLine = (n: number, edit: (line: Record<string, any>) => void) => {
    const lines = text.split('\n');
    const i = n - 1;
    const value = JSON.parse(lines[i]);
    edit(value);
    lines[i] = JSON.stringify(value);
    return lines.join('\n');
  };
  /** What an import says of the text's first bad line. */
  const importSays = (t: string) => {
    try {
      parseExportFile(t);
    } catch (e) {
      return (e as Error).message;
    }
    return 'no error';
  };

  it('reads a line bad only in a field scoring does not read, and its whole check then names it as an import does', () => {
    const bad = withLine(40, (l) => (l.steps[3].observation = 5));
    const read = readLines(bad);
    expect(read.episodes).toHaveLength(records.length);
    const error = read.rest();
    expect(error).toBeInstanceOf(LineError);
    expect(`Line ${error!.line}: ${error!.message}`).toBe(importSays(bad));
    expect(error!.message).toMatch(/^steps\[3\]\.observation: /);
    expect(readLines(text).rest()).toBeNull();
  });

  it('names the first bad line when a later one is bad in a field scoring reads', () => {
    const bad = withLine(60, (l) => (l.steps[0].valid = 'yes'));
    const both = bad.split('\n');
    both[29] = JSON.stringify({ ...JSON.parse(both[29]), header: { ...JSON.parse(both[29]).header, appVersion: 7 } });
    const t = both.join('\n');
    expect(() => readLines(t)).toThrow(LineError);
    try {
      readLines(t);
    } catch (e) {
      expect(`Line ${(e as LineError).line}: ${(e as LineError).message}`).toBe(importSays(t));
      expect((e as LineError).message).toMatch(/^header\.appVersion: /);
    }
    // Alone, the line bad in a read field is refused as the file is read, with the import's words.
    try {
      readLines(bad);
      expect.unreachable();
    } catch (e) {
      expect(`Line ${(e as LineError).line}: ${(e as LineError).message}`).toBe(importSays(bad));
    }
  });
});
