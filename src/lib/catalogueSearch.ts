/** The catalogue's task rows: what the search and filters look at, built from any environment alike. */
import type { EnvEntry } from '../../envs/index.ts';
import type { EnvDefinition } from '../../envs/core/types.ts';
import { suiteNames } from '../../suites/index.ts';

export interface TaskRow {
  /** `${envId}/${taskId}`, as episodes are keyed. */
  key: string;
  envId: string;
  /** The names of the suites the task's environment belongs to. */
  benchmarks: string[];
  id: string;
  name: string;
  /** What the list shows as the task's name: its title where the upstream name is only an index. */
  title: string;
  description: string;
  /** The description as shown under the title: without the part the title already says. */
  detail: string;
  difficulty?: string;
  /** 'dev' / 'test' where the benchmark has splits. */
  split?: string;
  steps: number;
  usesSeed: boolean;
  keywords: readonly string[];
  tags: readonly string[];
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Natural order: "problem2" before "problem10". */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b);
}

/** The description past a title made from its start (`…` where the title was cut), or all of it. */
export function detailBeyond(title: string, description: string): string {
  const text = description.trim().replace(/\s+/g, ' ');
  const said = title.replace(/…$/, '');
  const at = said ? text.indexOf(said) : -1;
  if (at < 0 || at > 1) return description; // at 1: past an opening quote mark the title left out
  const rest = text.slice(at + said.length).replace(/^[\s.,;:]+/, '');
  return rest && title.endsWith('…') ? `…${rest}` : rest;
}

export function taskRows(entry: EnvEntry, env: EnvDefinition): TaskRow[] {
  // The environment's suites, named once for all its rows.
  const benchmarks = suiteNames(entry);
  return env.tasks().map((task) => {
    let description = task.description ?? '';
    if (!description && env.describe) {
      try {
        description = env.describe(task);
      } catch {
        description = '';
      }
    }
    return {
      key: `${env.id}/${task.id}`,
      envId: env.id,
      benchmarks,
      id: task.id,
      name: task.name,
      title: task.title || task.name,
      description,
      detail: task.title ? detailBeyond(task.title, description) : description,
      difficulty: task.difficulty,
      split: task.split,
      steps: env.maxSteps(task),
      usesSeed: env.usesSeed?.(task) ?? true,
      keywords: task.keywords ?? [],
      tags: task.tags ?? [],
    };
  });
}

/**
 * Every word of the query starts a word (case-insensitive) in the id, name, title, description,
 * keywords, environment, difficulty or split. Words start after a space or punctuation, at a
 * capital inside a name ("PickupDistDebug": Pickup, Dist, Debug) and where letters and digits
 * meet ("problem10"), so "std" does not find "PickupDistDebug".
 */
export function matches(row: TaskRow, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = `${row.id} ${row.name} ${row.title} ${row.description} ${row.keywords.join(' ')} ${row.tags.join(' ')} ${row.envId} ${row.difficulty ?? ''} ${row.split ?? ''}`;
  const lower = hay.toLowerCase();
  return words.every((w) => {
    for (let i = lower.indexOf(w); i >= 0; i = lower.indexOf(w, i + 1)) if (startsWord(hay, i)) return true;
    return false;
  });
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
function startsWord(text: string, i: number): boolean {
  if (i === 0) return true;
  const before = text[i - 1];
  const at = text[i];
  if (!LETTER_OR_DIGIT.test(before) || !LETTER_OR_DIGIT.test(at)) return true;
  if (/\p{Lu}/u.test(at) && /\p{Ll}/u.test(before)) return true; // camelCase
  return /\p{N}/u.test(at) !== /\p{N}/u.test(before); // letters meet digits
}
