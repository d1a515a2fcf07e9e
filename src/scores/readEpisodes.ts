/**
 * Export lines to what the scores view keeps of each episode: the header fields its filter reads
 * and the facts scoring reads (runtime/scores/facts.ts), not the whole episode (observations,
 * model turns): 10,000 episodes stay small, and cross from the parsing workers cheaply (the
 * steps' facts packed in two buffers a piece, transferred, not copied).
 *
 * Each line is checked as an import checks it (runtime/jsonl.ts checkLine: format, version 1
 * migration, schema), in two passes so the scores need not wait for the whole check: first the
 * fields the filter and scoring read, with the record's own schemas narrowed to them (v.pick), as
 * the file is read; then, after the episodes have been handed on, every field (`rest()`). The first
 * bad line is the same either way, with the same message: a line the first pass refuses is named
 * by the whole check, after the whole check of the lines before it.
 */
import * as v from 'valibot';
import { EPISODE_FORMAT, EPISODE_FORMAT_VERSION, checkLine, lineJson } from '../../runtime/jsonl.ts';
import { HeaderSchema, StepSchema, isPlainObject, type EpisodeRecord } from '../../runtime/records.ts';
import { episodeFacts, factsOf, groundedStep, type EpisodeFacts } from '../../runtime/scores/index.ts';
import type { FilterFields } from './selection.ts';

export interface SlimEpisode {
  header: FilterFields & { id: string };
  facts: EpisodeFacts;
}

function slimHeader(h: EpisodeRecord['header']): SlimEpisode['header'] {
  const header: SlimEpisode['header'] = { id: h.id, env: h.env, task: h.task, driver: h.driver, startedAt: h.startedAt };
  if (h.participant !== undefined) header.participant = h.participant;
  if (h.study) header.study = { id: h.study.id, title: h.study.title };
  if (h.verification?.result === 'failed') header.failedVerification = true;
  return header;
}

export function slimEpisode(record: EpisodeRecord): SlimEpisode {
  return { header: slimHeader(record.header), facts: episodeFacts(record) };
}

/** A bad line: its number within the text given (1-based) and what is wrong with it. */
export class LineError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** The header fields the filter (slimHeader) and scoring (factsOf) read: the first pass checks these. */
const ScoredHeaderSchema = v.pick(HeaderSchema, ['format', 'id', 'env', 'task', 'seed', 'driver', 'startedAt', 'endedAt', 'outcome', 'participant', 'attempt', 'practice', 'study', 'time', 'infraError', 'verification']);
/** The step fields scoring reads, and those the line's consistency rests on (episodeId, t). */
const ScoredStepsSchema = v.array(v.pick(StepSchema, ['episodeId', 't', 'action', 'valid', 'progress']));
type ScoredStep = v.InferOutput<typeof ScoredStepsSchema>[number];

/** A version 2 episode line whose read fields are sound, or null (anything else: the whole check decides). */
function scoredLine(value: unknown): { header: EpisodeRecord['header']; steps: ScoredStep[] } | null {
  if (!isPlainObject(value) || value.format !== EPISODE_FORMAT || value.version !== EPISODE_FORMAT_VERSION) return null;
  const header = v.safeParse(ScoredHeaderSchema, value.header, { abortEarly: true });
  if (!header.success || !v.is(ScoredStepsSchema, value.steps)) return null;
  const steps = value.steps;
  const h = header.output as EpisodeRecord['header'];
  // The consistency checkLine asks for (runtime/jsonl.ts).
  for (let i = 0; i < steps.length; i++) if (steps[i].episodeId !== h.id || steps[i].t !== i + 1) return null;
  if (h.outcome && h.outcome.steps !== steps.length) return null;
  return { header: h, steps };
}

/** A run of export lines read: its episodes, how many lines it held, the buffers their step facts live in. */
export interface ReadLines {
  episodes: SlimEpisode[];
  /** The text's lines as a split on newlines counts them (a final newline opens no new line), so callers can number later pieces' lines. */
  lines: number;
  /** The step facts' buffers: post them as transferables. */
  buffers: ArrayBuffer[];
  /** The whole check of the lines the first pass let through: the first bad one, or null. */
  rest(): LineError | null;
}

/**
 * Export lines read as they come, checked in the first pass (see above): `push` text in any
 * pieces (a line may span them), then `finish`. Throws a LineError at the first bad line.
 */
class LineReader {
  readonly episodes: SlimEpisode[] = [];
  /** The environments met so far, in the order first met. */
  readonly envs = new Set<string>();
  /**
   * The lines the first pass let through and their numbers, for the whole check (`rest`), which
   * parses them again: keeping 75 MB of parsed lines alive instead costs the first pass more
   * garbage-collection time than the second parse costs. A line is a slice of the text read.
   */
  private readonly unchecked: (string | number)[] = [];
  private checkedTo = 0;
  private readonly grounded: number[] = [];
  private readonly progress: number[] = [];
  private readonly spans: number[] = [];
  /** The start of a line whose end has not come yet, in pieces (joined once, at its end). */
  private pending: string[] = [];
  private line = 0;

  push(text: string): void {
    let at = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', at)) {
      let raw = text.slice(at, end);
      if (this.pending.length) {
        this.pending.push(raw);
        raw = this.pending.join('');
        this.pending = [];
      }
      this.read(raw);
      at = end + 1;
    }
    if (at < text.length) this.pending.push(text.slice(at));
  }

  /** The last line (one without a newline after it), and what was read. */
  finish(): ReadLines {
    if (this.pending.length) this.read(this.pending.join(''));
    this.pending = [];
    const { episodes, spans } = this;
    // The steps' facts of the whole run in two buffers, each episode's a view into them.
    const g = Uint8Array.from(this.grounded);
    const p = Float64Array.from(this.progress);
    for (let k = 0; k < episodes.length; k++) {
      const from = spans[2 * k];
      const to = from + spans[2 * k + 1];
      episodes[k].facts.steps = { grounded: g.subarray(from, to), progress: p.subarray(from, to) };
    }
    return { episodes, lines: this.line, buffers: [g.buffer, p.buffer], rest: () => this.rest() };
  }

  private rest(): LineError | null {
    const { unchecked } = this;
    for (; this.checkedTo < unchecked.length; this.checkedTo += 2) {
      const line = unchecked[this.checkedTo + 1] as number;
      try {
        checkLine(lineJson(unchecked[this.checkedTo] as string, line), line);
      } catch (e) {
        return lineError(line, e);
      }
    }
    return null;
  }

  private read(raw: string): void {
    const line = ++this.line;
    if (raw.trim() === '') return;
    let read: ReturnType<typeof scoredLine>;
    try {
      const value = lineJson(raw, line);
      read = scoredLine(value);
      if (!read) {
        // Not read by the first pass: the lines before it are checked whole first (the first bad line is named), then this one.
        const before = this.rest();
        if (before) throw before;
        const parsed = checkLine(value, line);
        // An imported task file kept in an export (runtime/taskFiles.ts) is not an episode: passed by.
        if (parsed.kind === 'episode') read = parsed.record;
      } else this.unchecked.push(raw, line);
    } catch (e) {
      throw e instanceof LineError ? e : lineError(line, e);
    }
    if (!read) return;
    this.spans.push(this.grounded.length, read.steps.length);
    for (const s of read.steps) {
      this.grounded.push(groundedStep(s) ? 1 : 0);
      this.progress.push(s.progress ?? NaN);
    }
    this.envs.add(read.header.env);
    this.episodes.push({ header: slimHeader(read.header), facts: factsOf(read.header, NO_STEPS) });
  }
}

/**
 * The episodes of a blob of whole export lines, read as its bytes arrive (reading a large file
 * and parsing it overlap; see LineReader); `first`: the blob starts a file, whose
 * byte order mark is not part of its first line. `onProgress` gets the bytes read so far and the
 * environments met, about every megabyte.
 */
export async function readBlobLines(blob: Blob, first: boolean, onProgress?: (bytes: number, envs: ReadonlySet<string>) => void): Promise<ReadLines> {
  const reader = new LineReader();
  const decoder = new TextDecoder('utf-8', { ignoreBOM: !first });
  const chunks = blob.stream().getReader();
  let bytes = 0;
  let next = 1_000_000;
  for (;;) {
    const { done, value } = await chunks.read();
    if (done) break;
    bytes += value.length;
    reader.push(decoder.decode(value, { stream: true }));
    if (onProgress && bytes >= next) {
      onProgress(bytes, reader.envs);
      next = bytes + 1_000_000;
    }
  }
  reader.push(decoder.decode());
  return reader.finish();
}

const NO_STEPS = { grounded: new Uint8Array(0), progress: new Float64Array(0) };

function lineError(line: number, e: unknown): LineError {
  return new LineError(line, e instanceof Error ? e.message.replace(/^Line \d+: /, '') : String(e));
}
