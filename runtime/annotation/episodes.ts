/**
 * The part of a recorded episode that subgoal scoring reads: the initial observation,
 * each step's observation, and whether the benchmark updates progress after that step.
 * Prepared once (sentences split lazily, kept) so a changed set re-scores without
 * re-reading or re-splitting anything.
 */
import { sentencesOf } from '../../envs/core/subgoals.ts';
import type { EpisodeHeader, StepRecord } from '../records.ts';
import { entries } from '../../envs/index.ts';

export interface StepText {
  observation: string;
  /**
   * Whether the benchmark updates progress after this step. AgentBoard does so only
   * after an executed action: not after "check …" help, "look around" or an invalid
   * action (see agentboardCredited). Default true.
   */
  credited?: boolean;
}

export interface EpisodeText {
  id: string;
  /** The reset observation (never matched: AgentBoard scores only after actions). */
  initial: string;
  steps: readonly StepText[];
  /** The recorded outcome; null or absent when unknown (the episode is then in no success/failure list). */
  success?: boolean | null;
}

/**
 * One distinct observation text, shared by every step that shows it (stored episodes of a
 * task repeat observations a lot), with its sentences and the results of the text
 * matchers already run on it — so a changed set evaluates only its new patterns, and only
 * once per distinct text.
 */
export interface PreparedObservation {
  readonly text: string;
  /** Filled on first use by sentencesOfObservation. */
  sentences: string[] | null;
  /** Matcher key (matchers.ts) → fired. */
  readonly results: Map<string, boolean>;
}

export interface PreparedStep {
  readonly observation: PreparedObservation;
  readonly credited: boolean;
}

export interface PreparedEpisode {
  readonly id: string;
  readonly initial: string;
  readonly success: boolean | null;
  readonly steps: readonly PreparedStep[];
}

/** Interning table: pass the same one to keep sharing across calls. */
export type ObservationTable = Map<string, PreparedObservation>;

export function internObservation(table: ObservationTable, text: string): PreparedObservation {
  let o = table.get(text);
  if (!o) table.set(text, (o = { text, sentences: null, results: new Map() }));
  return o;
}

export function prepareEpisode(e: EpisodeText, table: ObservationTable = new Map()): PreparedEpisode {
  return {
    id: e.id,
    initial: e.initial,
    success: e.success ?? null,
    steps: e.steps.map((s) => ({ observation: internObservation(table, s.observation), credited: s.credited ?? true })),
  };
}

/** Prepare many episodes at once (identical observations are shared). */
export function prepareEpisodes(es: readonly EpisodeText[], table: ObservationTable = new Map()): PreparedEpisode[] {
  return es.map((e) => prepareEpisode(e, table));
}

/** The observation's sentences (AgentBoard's split on '.'), split once. */
export function sentencesOfObservation(o: PreparedObservation): string[] {
  return (o.sentences ??= sentencesOf(o.text));
}

/**
 * AgentBoard updates progress only after an action it executed: an invalid action, a
 * "check …" help request (BabyAI and PDDL answer any text containing "check") and PDDL's
 * "look around" leave it as it was (envs/babyai/README.md, envs/pddl/README.md: Upstream).
 */
export function agentboardCredited(action: string, valid: boolean): boolean {
  const a = action.toLowerCase();
  return valid && !a.includes('check') && !a.includes('look around');
}

/** Whether an environment is scored by AgentBoard's rules (its progress is updated only after executed actions): its catalogue line says. */
export function hasAgentBoardSubgoals(env: string): boolean {
  return entries().some((e) => e.id === env && e.agentboardSubgoals === true);
}

/**
 * A stored episode (header + step records, runtime/records.ts) as scoring input.
 * `credited` decides which steps update progress: AgentBoard's rule for its
 * environments, every step elsewhere, unless given.
 */
export function episodeFromRecords(
  header: EpisodeHeader,
  steps: readonly StepRecord[],
  credited: (step: StepRecord) => boolean = hasAgentBoardSubgoals(header.env) ? (s) => agentboardCredited(s.action, s.valid) : () => true,
): EpisodeText {
  return {
    id: header.id,
    initial: header.initialObservation,
    steps: [...steps].sort((a, b) => a.t - b.t).map((s) => ({ observation: s.observation, credited: credited(s) })),
    success: header.outcome?.success ?? null,
  };
}
