/**
 * The scores view's file reading: pieces cut at line ends (filePool.lineCuts) and read apart
 * (readEpisodes.readBlobLines, as the parsing workers read them) give the episodes and line numbers of the whole file, and the slim
 * episodes carry the same facts as the whole ones.
 */
import { describe, expect, it } from 'vitest';
import { parseExportFile, toJsonl } from '../../runtime/jsonl.ts';
import { episodeFacts } from '../../runtime/scores/index.ts';
import { lineCuts } from '../../src/scores/filePool.ts';
import { LineError, readBlobLines, slimEpisode, type ReadLines } from '../../src/scores/readEpisodes.ts';
import { goldenRecords } from './scores-golden.ts';

const records = goldenRecords(300);
// A blank line, CRLF ends and a non-ASCII observation, as real exports may have.
const text = toJsonl(records).replace('\n', '\n\n').replace(/\n(?=\{)/g, (m, at: number) => (at % 3 === 0 ? '\r\n' : m)).replace('You see a wall.', 'Vous voyez un mur — ✓');
const blob = new Blob([text]);
/** A file's text read as the scores view reads a file's first piece. */
const readLines = (t: string): Promise<ReadLines> => readBlobLines(new Blob([t]), true);
/** The LineError `read` rejects with. */
async function lineErrorOf(read: Promise<unknown>): Promise<LineError> {
  const e = await read.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(LineError);
  return e as LineError;
}

describe('scores file reading', () => {
  it('cuts at line ends only, and the pieces read apart give the whole file', async () => {
    for (const parts of [1, 2, 3, 7, 50]) {
      const cuts = await lineCuts(blob, parts);
      expect(cuts[0]).toBe(0);
      expect(cuts.at(-1)).toBe(blob.size);
      const bytes = new Uint8Array(await blob.arrayBuffer());
      for (const c of cuts.slice(1, -1)) expect(bytes[c - 1]).toBe(10);
      const read = await Promise.all(cuts.slice(0, -1).map((c, k) => readBlobLines(blob.slice(c, cuts[k + 1]), k === 0)));
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
        before += (await readBlobLines(bad.slice(cuts[k], cuts[k + 1]), k === 0)).lines;
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

  it('packs each episode\'s step facts as the whole record gives them', async () => {
    const read = await readLines(text);
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

  it('reads a line bad only in a field scoring does not read, and its whole check then names it as an import does', async () => {
    const bad = withLine(40, (l) => (l.steps[3].observation = 5));
    const read = await readLines(bad);
    expect(read.episodes).toHaveLength(records.length);
    const error = read.rest();
    expect(error).toBeInstanceOf(LineError);
    expect(`Line ${error!.line}: ${error!.message}`).toBe(importSays(bad));
    expect(error!.message).toMatch(/^steps\[3\]\.observation: /);
    expect((await readLines(text)).rest()).toBeNull();
  });

  it('names the first bad line when a later one is bad in a field scoring reads', async () => {
    const bad = withLine(60, (l) => (l.steps[0].valid = 'yes'));
    const both = bad.split('\n');
    both[29] = JSON.stringify({ ...JSON.parse(both[29]), header: { ...JSON.parse(both[29]).header, appVersion: 7 } });
    const t = both.join('\n');
    const first = await lineErrorOf(readLines(t));
    expect(`Line ${first.line}: ${first.message}`).toBe(importSays(t));
    expect(first.message).toMatch(/^header\.appVersion: /);
    // Alone, the line bad in a read field is refused as the file is read, with the import's words.
    const alone = await lineErrorOf(readLines(bad));
    expect(`Line ${alone.line}: ${alone.message}`).toBe(importSays(bad));
  });

  it('reads the same when the bytes come in small pieces: lines and multi-byte characters cut across them', async () => {
    // A participant named with characters of three bytes, kept in the slim episode (an observation is not).
    const named = withLine(5, (l) => (l.header.participant = 'Zoë — ✓'));
    const whole = await readLines(named);
    expect(whole.episodes.some((e) => e.header.participant === 'Zoë — ✓')).toBe(true);
    const bytes = new TextEncoder().encode(named);
    // Cut every seven bytes (every line spans pieces), and inside "—" and "✓".
    const inside = ['—', '✓'].map((c) => named.slice(0, named.indexOf(c))).map((before) => new TextEncoder().encode(before).length + 1);
    const cuts = [...new Set([...Array.from({ length: Math.ceil(bytes.length / 7) }, (_, k) => 7 * k), ...inside])].sort((a, b) => a - b);
    expect(inside.every((c) => cuts.includes(c) && bytes[c] >= 0x80)).toBe(true);
    const parts: BlobPart[] = cuts.map((c, k) => new Uint8Array(bytes.subarray(c, cuts[k + 1] ?? bytes.length)));
    const cut = await readBlobLines(new Blob(parts), true);
    expect(cut.lines).toBe(whole.lines);
    expect(cut.episodes).toEqual(whole.episodes);
    expect(cut.rest()).toBeNull();
  });

  it('drops a byte order mark that starts a file, and only there', async () => {
    const whole = await readLines(text);
    const marked = await readBlobLines(new Blob(['\uFEFF' + text]), true);
    expect(marked.episodes).toEqual(whole.episodes);
    // In a later piece a mark is part of its line, which is then not JSON, as in a file read whole.
    const inner = await lineErrorOf(readBlobLines(new Blob(['\uFEFF' + text]), false));
    expect(inner.line).toBe(1);
    expect(inner.message).toMatch(/^not valid JSON/);
  });
});
