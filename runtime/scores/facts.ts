/**
 * What scoring reads from a recorded episode, in one place: when the recorded format
 * changes, only episodeFacts changes. Also who played an episode (its groups).
 */
import type { EpisodeRecord } from '../records.ts';
import type { FinishReason } from '../../envs/core/types.ts';

export type PlayerKind = 'human' | 'model' | 'random' | 'oracle' | 'script';

/**
 * An episode's steps as scoring sees them, packed: one byte and one number a step, not an
 * object, so 300,000 steps cross between the scores view's workers as a few buffers.
 */
export interface StepFacts {
  /** 1 where the step counts as grounded (AgentBoard): valid as recorded, or a help action. */
  grounded: Uint8Array;
  /** AgentBoard progress (0..1) after each step; NaN where the environment reported none (a record's numbers are finite). */
  progress: Float64Array;
}

/** AgentBoard's help action: any action text containing "check" lists the valid actions, and counts as valid. */
export function isHelpAction(action: string): boolean {
  return action.toLowerCase().includes('check');
}

/** Whether a step counts as grounded: valid as recorded, or a help action. */
export function groundedStep(step: { action: string; valid: boolean }): boolean {
  return step.valid || isHelpAction(step.action);
}

/** The packed facts of recorded steps. */
export function stepFacts(steps: readonly { action: string; valid: boolean; progress?: number }[]): StepFacts {
  const grounded = new Uint8Array(steps.length);
  const progress = new Float64Array(steps.length);
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    grounded[i] = groundedStep(s) ? 1 : 0;
    progress[i] = s.progress ?? NaN;
  }
  return { grounded, progress };
}

export interface EpisodeFacts {
  id: string;
  env: string;
  task: string;
  seed: number;
  player: { kind: PlayerKind; name?: string };
  /** The person who played (format v2); absent for unattributed episodes. */
  participant?: string;
  attempt?: number;
  practice: boolean;
  startedAt: string;
  /** Time on task: a study's active time (net of pauses and hidden tabs) when recorded, else wall-clock time from start to end. */
  durationMs?: number;
  /** False while an episode has no outcome (still running or abandoned). */
  finished: boolean;
  /** The run stopped it for an infrastructure reason (header.infraError): never the player's result. */
  infraFailure: boolean;
  score: number;
  success: boolean | null;
  finishReason: FinishReason | null;
  steps: StepFacts;
}

/** Version-2 header fields, read only when present (format v1 records lack them). */
interface HeaderV2Extras {
  participant?: unknown;
  attempt?: unknown;
  practice?: unknown;
}

function durationOf(start: string, end: string | undefined): number | undefined {
  const ms = end === undefined ? NaN : Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** The facts of one recorded episode (format v1, and v2's added header fields when present). */
export function episodeFacts(record: EpisodeRecord): EpisodeFacts {
  return factsOf(record.header, stepFacts(record.steps));
}

/** An episode's facts from its header and its steps already packed (the scores view's file reader packs them as it reads). */
export function factsOf(h: EpisodeRecord['header'], steps: StepFacts): EpisodeFacts {
  const extra = h as unknown as HeaderV2Extras;
  const outcome = h.outcome;
  return {
    id: h.id,
    env: h.env,
    task: h.task,
    seed: h.seed,
    player: { kind: h.driver.kind, name: h.driver.name },
    participant: typeof extra.participant === 'string' && extra.participant !== '' ? extra.participant : undefined,
    attempt: typeof extra.attempt === 'number' ? extra.attempt : undefined,
    practice: extra.practice === true,
    startedAt: h.startedAt,
    durationMs: h.time?.activeMs ?? durationOf(h.startedAt, h.endedAt),
    finished: outcome !== undefined,
    infraFailure: h.infraError !== undefined,
    score: outcome?.score ?? 0,
    success: outcome?.success ?? null,
    finishReason: outcome?.finishReason ?? null,
    steps,
  };
}

/** A group of episodes by who played. */
export interface Group {
  /** 'humans', 'human:<participant>', 'random', 'oracle', 'model:<name>', 'script:<name>'. */
  key: string;
  label: string;
  kind: PlayerKind | 'humans';
}

export const HUMANS: Group = { key: 'humans', label: 'humans (pooled)', kind: 'humans' };

/** The groups an episode counts in: a person's episode counts for them and for "humans". */
export function groupsOf(e: EpisodeFacts): Group[] {
  const { kind, name } = e.player;
  switch (kind) {
    case 'human':
      return e.participant === undefined
        ? [HUMANS]
        : [HUMANS, { key: `human:${e.participant}`, label: `person ${e.participant}`, kind: 'human' }];
    case 'random':
    case 'oracle':
      return [{ key: kind, label: kind, kind }];
    case 'model':
    case 'script': {
      const n = name ?? '(unnamed)';
      return [{ key: `${kind}:${n}`, label: kind === 'model' ? n : `script ${n}`, kind }];
    }
  }
}

/** Display order of groups: humans pooled, each person, random, oracle, scripts, models. */
export function groupOrder(a: Group, b: Group): number {
  const rank = { humans: 0, human: 1, random: 2, oracle: 3, script: 4, model: 5 };
  return rank[a.kind] - rank[b.kind] || a.label.localeCompare(b.label);
}
