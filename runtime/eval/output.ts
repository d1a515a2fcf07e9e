/**
 * The run's output file (Node): the app's JSON Lines export, one episode per line, each line
 * appended and flushed to disk as its episode finishes. Opening it for a resumed run first
 * rewrites it without what resume drops (a half-written last line, infrastructure failures).
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { serializeEpisode, toJsonl } from '../jsonl.ts';
import type { EpisodeRecord } from '../records.ts';
import { resumeState, type ResumeState } from './resume.ts';

export interface EvalOutput {
  append(record: EpisodeRecord): void;
  close(): void;
}

/** What a file already holds for a resumed run (an absent or empty file holds nothing). */
export function readResume(path: string): ResumeState {
  return resumeState(existsSync(path) ? readFileSync(path, 'utf8') : '');
}

/** True when the file exists and holds anything (a fresh run refuses to add to it). */
export function hasContent(path: string): boolean {
  return existsSync(path) && statSync(path).size > 0;
}

/** Opens `path` for appending; with `resume`, first rewrites it to the episodes it keeps (atomically, via a renamed copy). */
export function openOutput(path: string, resume?: ResumeState): EvalOutput {
  if (resume?.rewrite) {
    const tmp = `${path}.resume-${process.pid}`;
    writeFileSync(tmp, toJsonl(resume.kept));
    renameSync(tmp, path);
  }
  const fd = openSync(path, 'a');
  return {
    append(record) {
      writeSync(fd, serializeEpisode(record) + '\n');
      fsyncSync(fd);
    },
    close() {
      closeSync(fd);
    },
  };
}
