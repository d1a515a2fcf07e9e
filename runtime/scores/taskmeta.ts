/**
 * A task's scoring metadata from what the catalogue knows about it (its suite, the
 * environment's column in the suite's table and the TaskInfo), for callers that have loaded
 * the environment.
 */
import { SMARTPLAY_COLUMNS, SMARTPLAY_ENV_IDS } from './published.ts';
import type { ScoreTableKind, TaskMeta } from './types.ts';

/** What scoring needs of a suite. */
export interface SuiteFields {
  id: string;
  name: string;
  table: ScoreTableKind;
}

/** The fields of an environment's TaskInfo that scoring reads (DB tasks carry `category`). */
export interface TaskFields {
  id: string;
  /** Upstream name, e.g. 'Hanoi3Disk-v0'. */
  name: string;
  difficulty?: string;
  category?: string;
  /** The one suite the task belongs to, where its environment is in several. */
  suite?: string;
}

/**
 * `builtIn` is false for a task outside the benchmark's own set (a BabyAI level × seed of
 * one's choosing, an imported task file): it is scored, but in no paper column, so it never
 * mixes into a number that stands beside a published one.
 */
export function taskMeta(suite: SuiteFields, envColumn: string | undefined, task: TaskFields, builtIn = true): TaskMeta {
  // SmartPlay's table has a column per game; the others one per environment (the catalogue line's).
  const perGame = suite.table === 'smartplay';
  let column: string | undefined;
  if (builtIn) column = perGame ? SMARTPLAY_COLUMNS.find((c) => SMARTPLAY_ENV_IDS[c] === task.name) : envColumn;
  return {
    suite: suite.id,
    suiteName: suite.name,
    table: suite.table,
    column,
    // Tables with a column per task show its upstream name.
    name: perGame || suite.table === 'plain' ? task.name : undefined,
    difficulty: task.difficulty,
    category: task.category,
  };
}
