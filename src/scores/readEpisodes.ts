/**
 * Export lines to what the scores view keeps of each episode: the header fields its filter reads
 * and the facts scoring reads (runtime/scores/facts.ts), not the whole episode (observations,
 * model turns): 10,000 episodes stay small, and cross from the parsing workers cheaply. Each line
 * is checked as an import checks it (parseExportFile: format, version 1 migration, schema).
 */
import { parseExportFile } from '../../runtime/jsonl.ts';
import type { EpisodeRecord } from '../../runtime/records.ts';
import { episodeFacts, type EpisodeFacts } from '../../runtime/scores/index.ts';
import type { FilterFields } from './selection.ts';

export interface SlimEpisode {
  header: FilterFields & { id: string };
  facts: EpisodeFacts;
}

export function slimEpisode({ header: h, steps }: EpisodeRecord): SlimEpisode {
  const header: SlimEpisode['header'] = { id: h.id, env: h.env, task: h.task, driver: h.driver, startedAt: h.startedAt };
  if (h.participant !== undefined) header.participant = h.participant;
  if (h.study) header.study = { id: h.study.id, title: h.study.title };
  if (h.verification?.result === 'failed') header.failedVerification = true;
  return { header, facts: episodeFacts({ header: h, steps }) };
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

/**
 * The episodes of a run of whole export lines. `lines` counts the text's lines as a split on
 * newlines does (a final newline ends the last line, it opens no new one), so callers can number
 * the lines of later pieces. Throws a LineError at the first bad line.
 */
export function readLines(text: string, onProgress?: (chars: number) => void): { episodes: SlimEpisode[]; lines: number } {
  const episodes: SlimEpisode[] = [];
  let line = 0;
  let at = 0;
  let next = 0;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    const stop = end < 0 ? text.length : end;
    line++;
    const raw = text.slice(at, stop);
    at = stop + 1;
    if (onProgress && at >= next) {
      onProgress(Math.min(at, text.length));
      next = at + 1_000_000;
    }
    if (raw.trim() === '') continue;
    let record: EpisodeRecord | undefined;
    try {
      // An imported task file kept in an export (runtime/taskFiles.ts) is not an episode: passed by.
      // Unknown fields are not listed: nothing is stored, and listing them walks every field of every step.
      [record] = parseExportFile(raw, undefined, { listIgnored: false }).episodes;
    } catch (e) {
      throw new LineError(line, e instanceof Error ? e.message.replace(/^Line \d+: /, '') : String(e));
    }
    if (record) episodes.push(slimEpisode(record));
  }
  return { episodes, lines: line };
}
