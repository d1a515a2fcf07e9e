/**
 * The episode store: every read and write of recorded episodes goes through here.
 * Each operation is one IndexedDB transaction, so a crash or a closed tab leaves
 * either the whole change or none of it. Nothing already recorded is ever
 * overwritten: creates and imports refuse or skip existing ids, finished
 * episodes take no more steps.
 */
import type { IDBPTransaction, StoreNames } from 'idb';
import { HeaderSchema, OutcomeSchema, StepSchema, withActor, type EpisodeHeader, type EpisodeRecord, type Outcome, type StepRecord, type Verification } from '../../runtime/records.ts';
import { checkShape, parseExportFile, toJsonl, type IgnoredFields } from '../../runtime/jsonl.ts';
import { TaskFileSchema, taskFilesFor, type StoredTaskFile } from '../../runtime/taskFiles.ts';
import { openDatabase, DB_NAME, type AgentplayDB, type AgentplayDatabase } from './db.ts';

export interface ImportResult {
  /** Episodes written. */
  imported: number;
  /** Episodes left out because an episode with the same id is already stored. */
  skipped: number;
  /** Imported task files the file carried that were not stored yet (now stored). */
  taskFiles: StoredTaskFile[];
  /** Fields the file held that the record format does not know: not stored (ignoredFieldsNotice words them). Absent when none. */
  ignored?: IgnoredFields[];
}

export interface Store {
  /** Record a new episode. Rejects if the header is malformed or the id is already stored. */
  createEpisode(header: EpisodeHeader): Promise<void>;
  /**
   * Record one step, add its actor to the header's actors and set updatedAt to step.at, in one transaction.
   * Rejects if the episode is missing or finished, or if step.t is not the next step number.
   */
  appendStep(step: StepRecord): Promise<void>;
  /**
   * Record consecutive steps of one episode in one transaction, all or none, with the same checks as
   * appendStep. The writes are issued at once (before any read returns), so a page that unloads
   * right after the call still commits them as long as the checks would pass.
   */
  appendSteps(steps: readonly StepRecord[]): Promise<void>;
  /** Write the outcome and endedAt (updatedAt = endedAt). Rejects if missing, already finished, or outcome.steps ≠ steps stored. */
  finishEpisode(id: string, outcome: Outcome, endedAt: string): Promise<void>;
  /** All headers, newest first by startedAt (ties: id descending). */
  listEpisodes(): Promise<EpisodeHeader[]>;
  /** Header and steps (sorted by t), or undefined if no such episode. */
  getEpisode(id: string): Promise<EpisodeRecord | undefined>;
  /** Headers without an outcome (e.g. interrupted by a closed tab), newest first. */
  unfinishedEpisodes(): Promise<EpisodeHeader[]>;
  /**
   * Keep the outcome of checking an episode against its replay on its header (or remove it). The
   * one change to a stored episode besides its own steps: a mark about the record, not the record.
   * Rejects if there is no such episode.
   */
  setVerification(id: string, verification: Verification | undefined): Promise<void>;
  /** Remove an episode and all its steps. Resolves if there was none. */
  deleteEpisode(id: string): Promise<void>;
  /**
   * All episodes, or only `ids` (rejects on an unknown id), as JSON Lines, newest first, after
   * the imported task files their tasks come from.
   */
  exportJsonl(ids?: string[]): Promise<string>;
  /**
   * Import a JSON Lines export, all or nothing: any bad line throws an ImportError and
   * nothing is written. Episodes whose id is already stored are skipped, never overwritten.
   * Task files in it are stored beside them (one already stored is left as it is).
   * `size` is the file's byte size if known, checked against the limit before parsing.
   */
  importJsonl(text: string, size?: number): Promise<ImportResult>;
  /** Keep an imported task file, replacing the record with the same key; the keys in `replaces` are removed in the same transaction. */
  saveTaskFile(file: StoredTaskFile, replaces?: string[]): Promise<void>;
  /** The kept task files (of one environment, if given), oldest import first. */
  listTaskFiles(env?: string): Promise<StoredTaskFile[]>;
  /** Forget a kept task file (its episodes stay; they then name a task this browser does not know). */
  deleteTaskFile(key: string): Promise<void>;
  close(): void;
}

type Tx<M extends IDBTransactionMode> = IDBPTransaction<AgentplayDB, StoreNames<AgentplayDB>[], M>;

/** Undo a transaction that failed part-way; it may already have aborted itself. */
function abortQuietly(tx: { done: Promise<void>; abort(): void }): void {
  tx.done.catch(() => {}); // the rejection is the error we are already throwing
  try {
    tx.abort();
  } catch {
    // already finished or aborted
  }
}

/** Run `body` in one transaction over `stores`; abort it (writing nothing) if body throws. */
async function inTransaction<M extends IDBTransactionMode, T>(
  db: AgentplayDatabase,
  stores: StoreNames<AgentplayDB>[],
  mode: M,
  body: (tx: Tx<M>) => Promise<T>,
): Promise<T> {
  const tx = db.transaction(stores, mode);
  let result: T;
  try {
    result = await body(tx);
  } catch (e) {
    abortQuietly(tx);
    throw e;
  }
  await tx.done;
  return result;
}

// The index yields oldest first (ties by id), so reversing gives newest first, deterministically.
const newestFirst = (headers: EpisodeHeader[]) => headers.reverse();
const oldestImportFirst = (files: StoredTaskFile[]) => files.sort((a, b) => (a.importedAt < b.importedAt ? -1 : a.importedAt > b.importedAt ? 1 : a.key < b.key ? -1 : 1));

export async function openStore(name: string = DB_NAME): Promise<Store> {
  const db = await openDatabase(name);
  const listEpisodes = async () => newestFirst(await db.getAllFromIndex('episodes', 'by-startedAt'));

  async function appendSteps(input: readonly StepRecord[], name: string): Promise<void> {
    const steps = input.map((step) => checkShape(StepSchema, step, name, 'step'));
    if (steps.length === 0) return;
    const id = steps[0].episodeId;
    steps.forEach((step, i) => {
      if (step.episodeId !== id) throw new Error(`${name}: every step must belong to episode "${id}", not "${step.episodeId}"`);
      if (i > 0 && step.t !== steps[i - 1].t + 1) throw new Error(`${name}: steps must be consecutive (t=${steps[i - 1].t} then t=${step.t})`);
    });
    await inTransaction(db, ['episodes', 'steps'], 'readwrite', async (tx) => {
      const episodes = tx.objectStore('episodes');
      const store = tx.objectStore('steps');
      // Reads and writes are all requested now, in this order: the reads see the state before the
      // writes, and a failed check below aborts the transaction, undoing them.
      const reads = Promise.all([episodes.get(id), store.index('by-episode').count(id)]);
      const writes = Promise.all(steps.map((step) => store.add(step)));
      writes.catch(() => {}); // a failed add aborts the transaction: reported through tx.done
      const [header, count] = await reads;
      if (!header) throw new Error(`${name}: no episode with id "${id}"`);
      if (header.outcome) throw new Error(`${name}: episode "${id}" is already finished`);
      // Steps must stay 1, 2, 3, … so every stored episode exports to an importable file.
      if (steps[0].t !== count + 1) {
        throw new Error(`${name}: episode "${id}" has ${count} steps, so the next step is t=${count + 1}, not t=${steps[0].t}`);
      }
      const actors = steps.reduce((list, step) => withActor(list, step.actor), header.actors);
      await episodes.put({ ...header, actors, updatedAt: steps[steps.length - 1].at });
      await writes;
    });
  }

  return {
    async createEpisode(input) {
      const header = checkShape(HeaderSchema, input, 'createEpisode', 'header');
      await inTransaction(db, ['episodes'], 'readwrite', async (tx) => {
        const episodes = tx.objectStore('episodes');
        if ((await episodes.getKey(header.id)) !== undefined) {
          throw new Error(`createEpisode: an episode with id "${header.id}" is already stored`);
        }
        await episodes.add(header);
      });
    },

    async appendStep(input) {
      await appendSteps([input], 'appendStep');
    },

    async appendSteps(input) {
      await appendSteps(input, 'appendSteps');
    },

    async finishEpisode(id, input, endedAt) {
      const outcome = checkShape(OutcomeSchema, input, 'finishEpisode', 'outcome');
      if (typeof endedAt !== 'string') throw new Error('finishEpisode: endedAt must be a string');
      await inTransaction(db, ['episodes', 'steps'], 'readwrite', async (tx) => {
        const episodes = tx.objectStore('episodes');
        const header = await episodes.get(id);
        if (!header) throw new Error(`finishEpisode: no episode with id "${id}"`);
        if (header.outcome) throw new Error(`finishEpisode: episode "${id}" is already finished`);
        const count = await tx.objectStore('steps').index('by-episode').count(id);
        if (outcome.steps !== count) {
          throw new Error(`finishEpisode: outcome.steps is ${outcome.steps} but episode "${id}" has ${count} steps stored`);
        }
        await episodes.put({ ...header, outcome, endedAt, updatedAt: endedAt });
      });
    },

    listEpisodes,

    async getEpisode(id) {
      return inTransaction(db, ['episodes', 'steps'], 'readonly', async (tx) => {
        const header = await tx.objectStore('episodes').get(id);
        if (!header) return undefined;
        const steps = await tx.objectStore('steps').index('by-episode').getAll(id);
        return { header, steps: steps.sort((a, b) => a.t - b.t) };
      });
    },

    async unfinishedEpisodes() {
      return (await listEpisodes()).filter((h) => !h.outcome);
    },

    async setVerification(id, verification) {
      await inTransaction(db, ['episodes'], 'readwrite', async (tx) => {
        const episodes = tx.objectStore('episodes');
        const header = await episodes.get(id);
        if (!header) throw new Error(`setVerification: no episode with id "${id}"`);
        const { verification: _old, ...rest } = header;
        const next = verification ? { ...rest, verification } : rest;
        await episodes.put(checkShape(HeaderSchema, next, 'setVerification', 'header'));
      });
    },

    async deleteEpisode(id) {
      await inTransaction(db, ['episodes', 'steps'], 'readwrite', async (tx) => {
        const steps = tx.objectStore('steps');
        const keys = await steps.index('by-episode').getAllKeys(id);
        await Promise.all([tx.objectStore('episodes').delete(id), ...keys.map((k) => steps.delete(k))]);
      });
    },

    async exportJsonl(ids) {
      const { records, taskFiles } = await inTransaction(db, ['episodes', 'steps', 'taskFiles'], 'readonly', async (tx) => {
        let headers = newestFirst(await tx.objectStore('episodes').index('by-startedAt').getAll());
        if (ids) {
          const known = new Set(headers.map((h) => h.id));
          const missing = ids.find((id) => !known.has(id));
          if (missing !== undefined) throw new Error(`exportJsonl: no episode with id "${missing}"`);
          const wanted = new Set(ids);
          headers = headers.filter((h) => wanted.has(h.id));
        }
        const byEpisode = tx.objectStore('steps').index('by-episode');
        const stepLists = await Promise.all(headers.map((h) => byEpisode.getAll(h.id)));
        const kept = oldestImportFirst(await tx.objectStore('taskFiles').getAll());
        return { records: headers.map((header, i) => ({ header, steps: stepLists[i].sort((a, b) => a.t - b.t) })), taskFiles: taskFilesFor(kept, headers) };
      });
      return toJsonl(records, taskFiles);
    },

    async importJsonl(text, size) {
      const { episodes: records, taskFiles, ignored } = parseExportFile(text, size); // throws before any write
      return inTransaction(db, ['episodes', 'steps', 'taskFiles'], 'readwrite', async (tx) => {
        const episodes = tx.objectStore('episodes');
        const steps = tx.objectStore('steps');
        const files = tx.objectStore('taskFiles');
        const knownFiles = await Promise.all(taskFiles.map((f) => files.getKey(f.key)));
        const newFiles = taskFiles.filter((_, i) => knownFiles[i] === undefined);
        await Promise.all(newFiles.map((f) => files.add(f)));
        const stored = await Promise.all(records.map((r) => episodes.getKey(r.header.id)));
        const fresh = records.filter((_, i) => stored[i] === undefined);
        // add (not put): if anything collides after all, the transaction fails instead of overwriting.
        await Promise.all(
          fresh.flatMap((r) => [episodes.add(r.header), ...r.steps.map((s) => steps.add(s))]),
        );
        const result: ImportResult = { imported: fresh.length, skipped: records.length - fresh.length, taskFiles: newFiles };
        if (ignored.length > 0) result.ignored = ignored;
        return result;
      });
    },

    async saveTaskFile(input, replaces = []) {
      const file = checkShape(TaskFileSchema, input, 'saveTaskFile', 'file');
      await inTransaction(db, ['taskFiles'], 'readwrite', async (tx) => {
        const files = tx.objectStore('taskFiles');
        await Promise.all(replaces.filter((k) => k !== file.key).map((k) => files.delete(k)));
        await files.put(file);
      });
    },

    async listTaskFiles(env) {
      return oldestImportFirst(env === undefined ? await db.getAll('taskFiles') : await db.getAllFromIndex('taskFiles', 'by-env', env));
    },

    async deleteTaskFile(key) {
      await db.delete('taskFiles', key);
    },

    close() {
      db.close();
    },
  };
}
