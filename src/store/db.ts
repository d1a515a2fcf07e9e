/**
 * The IndexedDB database: schema and opening. Only store.ts should use this
 * directly; everything else goes through the store's API.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { AnnotationFlag, RatingStudy, StoredRating, StoredSubgoalSet } from './annotationTypes.ts';
import type { ExclusionRow, OutboxItem, StudyRun } from '../studies/types.ts';
import { migrateHeaderV1, migrateStepV1, type EpisodeHeader, type StepRecord } from '../../runtime/records.ts';
import type { StoredTaskFile } from '../../runtime/taskFiles.ts';

export const DB_NAME = 'agentplay';
export const DB_VERSION = 5;

/** A label on a task (e.g. subgoals). Nothing writes these yet; the store exists so adding them needs no migration. */
export interface Annotation {
  id: string;
  task: string;
  [field: string]: unknown;
}

export interface AgentplayDB extends DBSchema {
  episodes: {
    key: string;
    value: EpisodeHeader;
    indexes: { 'by-startedAt': string };
  };
  steps: {
    /** [episodeId, t]: one episode's steps sit together, in step order. */
    key: [string, number];
    value: StepRecord;
    indexes: { 'by-episode': string };
  };
  annotations: {
    key: string;
    value: Annotation;
    indexes: { 'by-task': string };
  };
  /** Subgoal sets (issue 13), one row per (env, task, version); `author` says whose. */
  subgoalSets: {
    key: string;
    value: StoredSubgoalSet;
    indexes: { 'by-task': string };
  };
  /** "The score here is wrong" flags raised while checking a set by playing. */
  annotationFlags: {
    key: string;
    value: AnnotationFlag;
    indexes: { 'by-task': string };
  };
  /** Progress-rating studies (which trajectories of a task raters score). */
  ratingStudies: {
    key: string;
    value: RatingStudy;
    indexes: { 'by-task': string };
  };
  /** One rater's rating of one trajectory in one study. */
  ratings: {
    key: string;
    value: StoredRating;
    indexes: { 'by-study': string };
  };
  /** Studies (version 4): each participant's place in a study, so a reload resumes there. */
  studyRuns: {
    key: string;
    value: StudyRun;
  };
  /** Studies (version 4): finished episodes waiting to reach the researcher (HTTP endpoint, JATOS) until acknowledged. */
  outbox: {
    key: string;
    value: OutboxItem;
  };
  /** Studies (version 4): participants and episodes a researcher excluded, with the reason. */
  exclusions: {
    key: string;
    value: ExclusionRow;
  };
  /** Task files imported in the app (version 5), kept so their tasks come back after a reload. */
  taskFiles: {
    key: string;
    value: StoredTaskFile;
    indexes: { 'by-env': string };
  };
  /** Out-of-line keys: settings are stored as key → any value. */
  settings: {
    key: string;
    value: unknown;
  };
}

export type AgentplayDatabase = IDBPDatabase<AgentplayDB>;

/** Open (creating or upgrading as needed) the database. `name` is overridable for tests. */
export function openDatabase(name: string = DB_NAME): Promise<AgentplayDatabase> {
  return openDB<AgentplayDB>(name, DB_VERSION, {
    async upgrade(db, oldVersion, _newVersion, transaction) {
      // Migrations run in order from the version on disk. People's recorded episodes
      // live here, so a migration may add stores and indexes but must never delete a
      // store or clear data. For version 6, bump DB_VERSION and add `if (oldVersion < 6)`
      // below; never edit an earlier block (databases already at that version skip it).
      if (oldVersion < 1) {
        const episodes = db.createObjectStore('episodes', { keyPath: 'id' });
        episodes.createIndex('by-startedAt', 'startedAt');

        const steps = db.createObjectStore('steps', { keyPath: ['episodeId', 't'] });
        steps.createIndex('by-episode', 'episodeId');

        const annotations = db.createObjectStore('annotations', { keyPath: 'id' });
        annotations.createIndex('by-task', 'task');

        db.createObjectStore('settings');
      }
      if (oldVersion === 1) {
        // Record format 2: every stored episode and step is rewritten in place (who took each
        // step, typed model turns); nothing is dropped. Only IDB requests are awaited here, so
        // the upgrade transaction stays open throughout.
        const drivers = new Map<string, unknown>();
        let episode = await transaction.objectStore('episodes').openCursor();
        while (episode) {
          const old = episode.value as unknown as Record<string, unknown>;
          drivers.set(String(old.id), old.driver);
          await episode.update(migrateHeaderV1(old) as unknown as EpisodeHeader);
          episode = await episode.continue();
        }
        let step = await transaction.objectStore('steps').openCursor();
        while (step) {
          const old = step.value as unknown as Record<string, unknown>;
          await step.update(migrateStepV1(old, drivers.get(String(old.episodeId))) as unknown as StepRecord);
          step = await step.continue();
        }
      }
      if (oldVersion < 3) {
        // Annotation (issue 13): new stores only; every episode stays as it is.
        db.createObjectStore('subgoalSets', { keyPath: 'key' }).createIndex('by-task', 'envTask');
        db.createObjectStore('annotationFlags', { keyPath: 'id' }).createIndex('by-task', 'envTask');
        db.createObjectStore('ratingStudies', { keyPath: 'id' }).createIndex('by-task', 'envTask');
        db.createObjectStore('ratings', { keyPath: 'id' }).createIndex('by-study', 'study');
      }
      if (oldVersion < 4) {
        // Studies: where each participant is, results not yet acknowledged, a researcher's exclusions.
        db.createObjectStore('studyRuns', { keyPath: 'key' });
        db.createObjectStore('outbox', { keyPath: 'key' });
        db.createObjectStore('exclusions', { keyPath: 'key' });
      }
      if (oldVersion < 5) {
        // Imported task files (issue 18): a new store only; everything else stays as it is.
        db.createObjectStore('taskFiles', { keyPath: 'key' }).createIndex('by-env', 'env');
      }
    },
  });
}
