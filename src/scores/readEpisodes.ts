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
 * The episodes of a run of whole export lines, checked in the first pass (see above). Throws a
 * LineError at the first bad line.
 */
export function readLines(text: string, onProgress?: (chars: number, envs: ReadonlySet<string>) => void): ReadLines {
  const episodes: SlimEpisode[] = [];
  /**
   * Where the lines the first pass let through are (start, end, line number), for the whole check
   * (`rest`), which parses them again: keeping 75 MB of parsed lines alive instead costs the first
   * pass more garbage-collection time than the second parse costs.
   */
  const unchecked: number[] = [];
  let checkedTo = 0;
  const rest = (): LineError | null => {
    for (; checkedTo < unchecked.length; checkedTo += 3) {
      const line = unchecked[checkedTo + 2];
      try {
        checkLine(lineJson(text.slice(unchecked[checkedTo], unchecked[checkedTo + 1]), line), line);
      } catch (e) {
        return lineError(line, e);
      }
    }
    return null;
  };
  /** The environments met so far, in the order first met. */
  const envs = new Set<string>();
  const grounded: number[] = [];
  const progress: number[] = [];
  const spans: number[] = [];
  let line = 0;
  let at = 0;
  let next = 0;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    const stop = end < 0 ? text.length : end;
    line++;
    const start = at;
    const raw = text.slice(at, stop);
    at = stop + 1;
    if (onProgress && at >= next) {
      onProgress(Math.min(at, text.length), envs);
      next = at + 1_000_000;
    }
    if (raw.trim() === '') continue;
    let value: unknown;
    let read: ReturnType<typeof scoredLine>;
    try {
      value = lineJson(raw, line);
      read = scoredLine(value);
      if (!read) {
        // Not read by the first pass: the lines before it are checked whole first (the first bad line is named), then this one.
        const before = rest();
        if (before) throw before;
        const parsed = checkLine(value, line);
        // An imported task file kept in an export (runtime/taskFiles.ts) is not an episode: passed by.
        if (parsed.kind === 'episode') read = parsed.record;
      } else unchecked.push(start, stop, line);
    } catch (e) {
      throw e instanceof LineError ? e : lineError(line, e);
    }
    if (!read) continue;
    spans.push(grounded.length, read.steps.length);
    for (const s of read.steps) {
      grounded.push(groundedStep(s) ? 1 : 0);
      progress.push(s.progress ?? NaN);
    }
    envs.add(read.header.env);
    episodes.push({ header: slimHeader(read.header), facts: factsOf(read.header, NO_STEPS) });
  }
  // The steps' facts of the whole run in two buffers, each episode's a view into them.
  const g = Uint8Array.from(grounded);
  const p = Float64Array.from(progress);
  for (let k = 0; k < episodes.length; k++) {
    const from = spans[2 * k];
    const to = from + spans[2 * k + 1];
    episodes[k].facts.steps = { grounded: g.subarray(from, to), progress: p.subarray(from, to) };
  }
  return { episodes, lines: line, buffers: [g.buffer, p.buffer], rest };
}

const NO_STEPS = { grounded: new Uint8Array(0), progress: new Float64Array(0) };

function lineError(line: number, e: unknown): LineError {
  return new LineError(line, e instanceof Error ? e.message.replace(/^Line \d+: /, '') : String(e));
}
