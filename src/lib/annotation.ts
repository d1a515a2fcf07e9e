/**
 * The app's side of subgoal annotation (issue 13), Svelte-free: who is annotating,
 * the sets of a task (AgentBoard's built-in version 1 plus the stored ones), drafts as
 * sets, the editor's one-line matcher syntax, and a task's stored episodes prepared for
 * live re-scoring. The arithmetic itself is runtime/annotation's.
 */
import { getTask, loadEnv } from '../../envs/index.ts';
import { simulate } from '../../envs/core/runner.ts';
import type { EpisodeRecord } from '../../runtime/records.ts';
import type { SubgoalText } from '../../envs/core/annotation.ts';
import {
  episodeFromRecords,
  prepareEpisodes,
  parseSubgoalSet,
  problemIdOf,
  stateEvaluator,
  type RowDefaults,
  type LeafMatcher,
  type Matcher,
  type PredicateEvaluator,
  type PredicateTable,
  type PreparedEpisode,
  type SubgoalSet,
  type KappaResult,
} from './annotationCore.ts';
import type { Draft, AnnotationStore } from '../store/annotations.ts';

const ANNOTATOR_KEY = 'agentplay.annotator';

/** The annotator id this browser works as (kept in localStorage; default "annotator-1"). */
export function currentAnnotator(): string {
  return localStorage.getItem(ANNOTATOR_KEY)?.trim() || 'annotator-1';
}

export function setAnnotator(name: string): string {
  const clean = name.trim() || 'annotator-1';
  localStorage.setItem(ANNOTATOR_KEY, clean);
  return clean;
}

/**
 * AgentBoard's own set for a task (version 1), or null: the environment's own (its catalogue
 * line's `annotation`); the data loads only when asked.
 */
export async function builtinSetFor(env: string, task: string): Promise<SubgoalSet | null> {
  return (await import('../../runtime/annotation/envAnnotation.ts')).builtinSetFor(env, task);
}

/** What the environment's AgentBoard subgoal texts are (patterns or goal literals), for reading its test.jsonl rows. */
export async function subgoalTextFor(env: string): Promise<SubgoalText> {
  return (await import('../../runtime/annotation/envAnnotation.ts')).subgoalTextFor(env);
}

/**
 * The AgentBoard row fields for a set of this task that came from no row: the task's own
 * row's (its built-in set's), else the problem's id, goal and difficulty from the catalogue.
 */
export async function rowDefaultsFor(env: string, task: string, builtin: SubgoalSet | null): Promise<RowDefaults> {
  const fields = builtin?.agentboard?.fields;
  if (fields) return { id: fields.id as number | string, goal: fields.goal as string, difficulty: fields.difficulty as string, additional_info: fields.additional_info };
  const info = getTask(await loadEnv(env), task);
  return { id: problemIdOf(env, task), goal: info.description ?? info.name, difficulty: info.difficulty ?? 'unknown' };
}

/** Every set of a task, built-in first, by version. */
export async function setsOfTask(store: AnnotationStore, env: string, task: string): Promise<SubgoalSet[]> {
  const [builtin, stored] = await Promise.all([builtinSetFor(env, task), store.listSets(env, task)]);
  return [...(builtin ? [builtin] : []), ...stored.filter((s) => !(builtin && s.version === builtin.version))];
}

/** The newest set of each author (the one compared in agreement), by author. */
export function latestByAuthor(sets: readonly SubgoalSet[]): SubgoalSet[] {
  const m = new Map<string, SubgoalSet>();
  for (const s of sets) if ((m.get(s.author)?.version ?? 0) < s.version) m.set(s.author, s);
  return [...m.values()];
}

export function emptyDraft(env: string, task: string, author: string, from?: SubgoalSet): Draft {
  return {
    env,
    task,
    author,
    base: from?.version ?? null,
    crediting: from?.crediting ?? 'subgoal',
    subgoals: from ? structuredClone(from.subgoals) : [],
  };
}

/** A draft as a set, to score with (version: the one it would get if saved now). */
export function draftAsSet(d: Draft, version: number, base?: SubgoalSet): SubgoalSet {
  const r = parseSubgoalSet({
    format: 1,
    env: d.env,
    task: d.task,
    author: d.author,
    version,
    parentVersion: d.base,
    createdAt: new Date().toISOString(),
    crediting: d.crediting,
    subgoals: JSON.parse(JSON.stringify(d.subgoals)),
    ...(base?.agentboard ? { agentboard: base.agentboard } : {}),
  });
  if (!r.ok) throw new Error(`the draft is not a valid set: ${r.message}`);
  return r.value;
}

// ---- The editor's one-line matcher syntax ----------------------------------------------

/** Separator between alternatives (AgentBoard's alternative lists). */
export const ALTERNATIVES = ' || ';

function leafText(m: LeafMatcher): string {
  if (m.kind === 'pattern') return m.pattern;
  if (m.kind === 'regex') return `/${m.source}/${m.flags ?? ''}`;
  const params = Object.entries(m.params)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(v) : String(v)}`)
    .join(' ');
  return `@${m.name}${params ? ' ' + params : ''}`;
}

/** A matcher in the editor's syntax: a pattern as is, `/regex/flags`, `@predicate key=value …`, alternatives joined by ` || `. */
export function matcherText(m: Matcher): string {
  return m.kind === 'any' ? m.of.map(leafText).join(ALTERNATIVES) : leafText(m);
}

function parseLeaf(text: string): LeafMatcher | string {
  const re = /^\/(.*)\/([a-z]*)$/s.exec(text);
  if (re) {
    if (/[^imsu]/.test(re[2])) return `regex flags may be i, m, s, u (not "${re[2]}")`;
    try {
      new RegExp(re[1], re[2]);
    } catch (e) {
      return `the regular expression does not compile: ${e instanceof Error ? e.message : e}`;
    }
    return re[2] ? { kind: 'regex', source: re[1], flags: re[2] } : { kind: 'regex', source: re[1] };
  }
  const pred = /^@([\w-]+)\s*(.*)$/s.exec(text);
  if (pred) {
    const params: Record<string, string | number | boolean | null> = {};
    for (const m of pred[2].matchAll(/([\w-]+)=("(?:[^"\\]|\\.)*"|\S+)/g)) {
      const raw = m[2];
      params[m[1]] = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw === 'null' ? null : raw === 'true' ? true : raw === 'false' ? false : Number.isFinite(Number(raw)) ? Number(raw) : raw;
    }
    return { kind: 'predicate', name: pred[1], params };
  }
  return { kind: 'pattern', pattern: text };
}

/** Parse the editor's syntax; a string is the reason it was refused. */
export function parseMatcherText(text: string): Matcher | string {
  const parts = text.split(ALTERNATIVES).map((p) => p.trim());
  if (parts.some((p) => p === '')) return 'a matcher cannot be empty';
  const leaves = parts.map(parseLeaf);
  const bad = leaves.find((l) => typeof l === 'string');
  if (typeof bad === 'string') return bad;
  return leaves.length === 1 ? (leaves[0] as LeafMatcher) : { kind: 'any', of: leaves as LeafMatcher[] };
}

// ---- A task's stored episodes, ready to re-score -----------------------------------------

export interface Corpus {
  records: EpisodeRecord[];
  prepared: PreparedEpisode[];
  /** Answers state predicates from replayed states (only for environments with a predicate table). */
  evaluate?: PredicateEvaluator;
}


export async function corpusOf(records: EpisodeRecord[], env: string, task: string): Promise<Corpus> {
  const prepared = prepareEpisodes(records.map((r) => episodeFromRecords(r.header, r.steps)));
  const predicates = await (await import('../../runtime/annotation/envAnnotation.ts')).predicateTableFor(env);
  if (!predicates) return { records, prepared };
  const def = await loadEnv(env);
  const info = getTask(def, task);
  const cache = new Map<string, readonly unknown[] | undefined>();
  const byId = new Map(records.map((r) => [r.header.id, r]));
  // States are replayed on first use only (a set without predicates never needs them).
  const statesOf = (id: string) => {
    if (!cache.has(id)) {
      const r = byId.get(id);
      cache.set(id, r ? simulate(def, info, r.header.seed, r.steps.map((s) => s.action))?.slice(1) : undefined);
    }
    return cache.get(id);
  };
  return { records, prepared, evaluate: stateEvaluator(statesOf, predicates) };
}

/** "42%" for a 0…1 figure. */
export function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** A figure that may be NaN (no variance, one category): then "not defined", never "NaN" or "undefined". */
export function fig(x: number, digits = 3): string {
  return Number.isNaN(x) ? 'not defined (no variation)' : x.toFixed(digits);
}

/**
 * κ on reached / not reached in words a reader can use: the figure, or why there is none (every
 * episode the same for all: κ has no chance agreement to beat) with the plain agreement.
 * `who` names the raters ("both", "all three").
 */
export function kappaWords(k: KappaResult, who = 'both'): string {
  if (!Number.isNaN(k.kappa)) return k.kappa.toFixed(3);
  if (k.n === 0) return 'not defined: no episodes';
  const agree = `${pct(k.observed)} agreement`;
  if (k.only === true) return `not defined: ${who} reached it in every episode (${agree})`;
  if (k.only === false) return `not defined: ${who} reached it in no episode (${agree})`;
  return `not defined: every rating is the same (${agree})`;
}
