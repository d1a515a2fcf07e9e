/**
 * The run's output file (Node): the app's JSON Lines export, one episode per line, each line
 * written as its episode finishes (in the operating system's hands at once: a crash of the run
 * loses nothing) and flushed to disk in the background, the lines written meanwhile together;
 * closing flushes what is left. A blocking flush per line held up every episode in flight (at
 * concurrency 16 the run waited on the disk more than on the model). Opening it for a resumed run first
 * rewrites it without what resume drops (a half-written last line, infrastructure failures).
 */
import { closeSync, existsSync, fsync, fsyncSync, openSync, readFileSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
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
  let closed = false;
  let flushing = false;
  let written = false;
  const flush = (): void => {
    if (flushing || closed) return;
    flushing = true;
    written = false;
    fsync(fd, () => {
      flushing = false;
      if (written) flush();
    });
  };
  return {
    append(record) {
      writeSync(fd, serializeEpisode(record) + '\n');
      written = true;
      flush();
    },
    close() {
      if (closed) return;
      closed = true;
      fsyncSync(fd);
      closeSync(fd);
    },
  };
}
