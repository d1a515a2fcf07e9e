/**
 * The record format (version 2): what is stored in IndexedDB, exported as JSON Lines,
 * written by the CLI and read back by replay, scores and imports. The valibot schemas
 * below are the single definition: every record type is inferred from its schema.
 *
 * An episode is a header (written when it starts, updated as it goes) and one step
 * record per step. New in version 2: each step says who took it (`actor`), the header
 * lists every actor that played (`actors`), and model steps carry typed model turns
 * (one record per call) instead of untyped metadata. Version 1 records are migrated
 * on the way in (migrateHeaderV1, migrateStepV1).
 */
import * as v from 'valibot';
import type { Actor } from '../envs/core/types.ts';
import { ModelTurnSchema, OutcomeSchema, finite, whole, type ModelTurn, type Outcome } from '../envs/core/outcome.ts';

// How an episode ended and what a model saw and said are the environment contract's (envs/core/outcome.ts).
export { ChatMessageSchema, ModelCallSchema, ModelTurnSchema, OutcomeSchema } from '../envs/core/outcome.ts';
export type { ChatMessageRecord, ModelCall, ModelTurn, Outcome } from '../envs/core/outcome.ts';

export const RECORD_FORMAT = 2;

// ---------------------------------------------------------------------------
// Building blocks


export function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (x === null || typeof x !== 'object') return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/** Values that survive a JSON round trip unchanged (so export → import is lossless). Iterative: deep nesting cannot overflow the stack. */
export function isJsonValue(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const x = stack.pop();
    if (x === null || typeof x === 'string' || typeof x === 'boolean') continue;
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) return false;
      continue;
    }
    if (Array.isArray(x)) stack.push(...x);
    else if (isPlainObject(x)) stack.push(...Object.values(x));
    else return false;
  }
  return true;
}

/** How deeply a JSON value nests (iteratively: any depth is measured without recursion). */
export function jsonDepth(root: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (d > deepest) deepest = d;
    if (Array.isArray(x)) for (const y of x) stack.push([y, d + 1]);
    else if (isPlainObject(x)) for (const y of Object.values(x)) stack.push([y, d + 1]);
  }
  return deepest;
}

/** Deeper step facts than any environment writes are refused (they would overflow recursive readers later). */
export const MAX_INFO_DEPTH = 64;

const InfoSchema = v.pipe(
  // v.record alone would accept an array and turn it into an object.
  v.custom<Record<string, unknown>>(isPlainObject, 'expected a plain object'),
  v.check((x) => jsonDepth(x) <= MAX_INFO_DEPTH, `nested more than ${MAX_INFO_DEPTH} levels deep`),
  v.record(v.string(), v.custom<unknown>(isJsonValue, 'expected a JSON value (string, finite number, boolean, null, array or object)')),
);

export const ViewSchema = v.picklist(['text', 'visual', 'full']);
export const ACTOR_KINDS = ['human', 'model', 'random', 'oracle', 'script'] as const;

/** Who took a step (envs/core/types.ts Actor). */
export const ActorSchema = v.object({ kind: v.picklist(ACTOR_KINDS), name: v.optional(v.string()) });

/** Who started the episode, with how a model or policy was run. Never an API key or a full URL. */
export const DriverSchema = v.object({
  kind: v.picklist(ACTOR_KINDS),
  /** e.g. a model name or a policy name. */
  name: v.optional(v.string()),
  /** Host of a model endpoint only ("127.0.0.1:8080", "in-browser"). */
  endpointHost: v.optional(v.string()),
  /** How a model ran: an OpenAI-compatible endpoint or in-browser inference. */
  engine: v.optional(v.picklist(['openai', 'webllm', 'wllama', 'fake'])),
  params: v.optional(v.object({ temperature: v.optional(finite()), maxTokens: v.optional(finite()) })),
  /** The suite whose conversation a model was driven with (suites/index.ts: smartplay, agentboard, agentbench, custom, …). */
  protocol: v.optional(v.pipe(v.string(), v.maxLength(64))),
  /** Seed of a random policy. */
  seed: v.optional(finite()),
});

// ---------------------------------------------------------------------------
// Human-baseline facts (studies): who played, which attempt, and time net of pauses.
// Times here are milliseconds since 1970 (Date.now()), so they survive a reload.

/**
 * Why the clock stopped: the tab was hidden, the person was idle past the threshold, pressed Pause,
 * waited on a model, or the page was reloaded (from the page going away until the task showed again).
 */
export const PAUSE_REASONS = ['hidden', 'idle', 'button', 'model', 'reload'] as const;
export const PauseSchema = v.object({
  reason: v.picklist(PAUSE_REASONS),
  from: finite(),
  to: finite(),
  /** The step that was being thought about (1-based: the step the next action becomes). */
  step: whole(1),
});

/** Where the participant id came from: a study link, Prolific, typed by the person, generated, or this browser's own id. */
export const PARTICIPANT_SOURCES = ['link', 'prolific', 'entered', 'generated', 'browser'] as const;
export const ParticipantSchema = v.object({
  id: v.pipe(v.string(), v.minLength(1, 'expected a non-empty participant id')),
  source: v.picklist(PARTICIPANT_SOURCES),
});

/** Signals a researcher screens data with; recorded, never acted on. */
export const SIGNAL_KINDS = ['paste', 'hidden', 'devtools-resize'] as const;
export const SignalSchema = v.object({
  kind: v.picklist(SIGNAL_KINDS),
  at: finite(),
  step: whole(1),
  /** e.g. the pasted length, or the window's inner and outer sizes. */
  detail: v.optional(v.string()),
});

export const ProlificSchema = v.object({
  PROLIFIC_PID: v.optional(v.string()),
  STUDY_ID: v.optional(v.string()),
  SESSION_ID: v.optional(v.string()),
});

/** The study an episode was played in, and where in it. */
export const StudyRefSchema = v.object({
  id: v.string(),
  title: v.string(),
  /** 1-based position in the participant's sequence (practice included), and its length. */
  position: whole(1),
  of: whole(1),
  prolific: v.optional(ProlificSchema),
  /** The per-task time limit in force, and whether it ended the episode. */
  timeLimitMs: v.optional(finite()),
  timedOut: v.optional(v.boolean()),
});

/** Per episode: when the task was first shown, time net of pauses, and wall time (first shown → last action or now). */
export const EpisodeTimeSchema = v.object({ shownAt: finite(), activeMs: finite(), wallMs: finite() });

/** Per step: when its observation was shown, when the action was sent, and the think time between them net of pauses. */
export const StepTimingSchema = v.object({ shownAt: finite(), sentAt: finite(), thinkMs: finite(), pausedMs: finite() });

export const VERIFICATION_RESULTS = ['verified', 'failed', 'skipped'] as const;

export const HeaderSchema = v.object({
  format: v.literal(RECORD_FORMAT),
  id: v.pipe(v.string(), v.minLength(1, 'expected a non-empty id')),
  env: v.string(),
  task: v.string(),
  seed: finite(),
  /** Who started the episode. */
  driver: DriverSchema,
  /** Everyone who took at least one step, in the order they first acted. */
  actors: v.array(ActorSchema),
  /** The view the episode started in; each step records the view in use when it was taken. */
  view: ViewSchema,
  maxSteps: whole(0),
  /** The reset observation (step 0). */
  initialObservation: v.string(),
  startedAt: v.string(),
  updatedAt: v.string(),
  endedAt: v.optional(v.string()),
  appVersion: v.string(),
  outcome: v.optional(OutcomeSchema),
  /** Who played, for a human baseline: a study's participant id, or the browser's pseudonymous id. */
  participant: v.optional(v.string()),
  /** 1 for a participant's first attempt at this task, 2 for the second, … */
  attempt: v.optional(whole(1)),
  /** A practice attempt (not scored). */
  practice: v.optional(v.boolean()),
  /** Set when this episode continues another one from a step (a hand-off). */
  branch: v.optional(v.object({ episodeId: v.string(), step: whole(0) })),
  /** Where `participant` came from: a study link, Prolific, typed by the person, generated, or this browser's own id. */
  participantSource: v.optional(v.picklist(PARTICIPANT_SOURCES)),
  study: v.optional(StudyRefSchema),
  time: v.optional(EpisodeTimeSchema),
  /** Every pause while the episode was shown, in the order they began. */
  pauses: v.optional(v.array(PauseSchema)),
  signals: v.optional(v.array(SignalSchema)),
  /**
   * Set when the run stopped the episode for an infrastructure reason, not the player's doing
   * (the model endpoint still failing after its retries, the network, the environment's own
   * error): `kind` is the model error's kind or 'environment'. Such an episode has no outcome,
   * is not scored, and `eval --resume` plays it again.
   */
  infraError: v.optional(v.object({ kind: v.string(), message: v.string() })),
  /** The OS environment's backend the episode ran in (absent: the embedded shell, the default). */
  shell: v.optional(v.picklist(['embedded', 'webcontainer', 'linux'])),
  /**
   * The last check of this episode against a replay (runtime/verify.ts), kept with it and carried
   * in exports so a re-import keeps the mark (a reader that predates it ignores it): `failed` = the
   * replay differs from the record, so its score is not trustworthy; `skipped` = not checked, and
   * `detail` says why (an environment that does not replay exactly).
   */
  verification: v.optional(v.object({ result: v.picklist(VERIFICATION_RESULTS), detail: v.optional(v.string()), at: v.string() })),
});

export const StepSchema = v.object({
  episodeId: v.string(),
  /** 1-based step number. */
  t: whole(1),
  action: v.string(),
  observation: v.string(),
  valid: v.boolean(),
  reward: finite(),
  score: finite(),
  terminated: v.boolean(),
  truncated: v.boolean(),
  progress: v.optional(finite()),
  /**
   * Progress (0…1) after this step under the subgoal set chosen to score the task when it
   * was played (issue 13; `set` = env/task/vN). Absent when the task used its own scoring.
   */
  subgoalProgress: v.optional(v.object({ set: v.string(), progress: finite() })),
  view: ViewSchema,
  /** Who took this step. */
  actor: ActorSchema,
  /** Wall-clock milliseconds the environment took for the step. */
  ms: finite(),
  at: v.string(),
  info: v.optional(InfoSchema),
  /** Present when a model took the step. */
  model: v.optional(ModelTurnSchema),
  /** A person's think time for the step (recorded in studies and free play). */
  timing: v.optional(StepTimingSchema),
});

export type DriverInfo = v.InferOutput<typeof DriverSchema>;
export type DriverKind = DriverInfo['kind'];
export type EpisodeHeader = v.InferOutput<typeof HeaderSchema>;
export type StepRecord = v.InferOutput<typeof StepSchema>;
export type Pause = v.InferOutput<typeof PauseSchema>;
export type PauseReason = Pause['reason'];
export type Participant = v.InferOutput<typeof ParticipantSchema>;
export type Signal = v.InferOutput<typeof SignalSchema>;
export type StudyRef = v.InferOutput<typeof StudyRefSchema>;
export type StepTiming = v.InferOutput<typeof StepTimingSchema>;
export type EpisodeTime = v.InferOutput<typeof EpisodeTimeSchema>;
export type Verification = NonNullable<EpisodeHeader['verification']>;
export interface EpisodeRecord {
  header: EpisodeHeader;
  steps: StepRecord[];
}

// The core's Actor type and the schema must agree.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameActor: Same<v.InferOutput<typeof ActorSchema>, Actor> = true;
void _sameActor;

// ---------------------------------------------------------------------------
// Building records

/** The actor a driver's steps are recorded under. */
export function actorOf(driver: Pick<DriverInfo, 'kind' | 'name'>): Actor {
  return driver.name === undefined ? { kind: driver.kind } : { kind: driver.kind, name: driver.name };
}

export function sameActor(a: Actor, b: Actor): boolean {
  return a.kind === b.kind && a.name === b.name;
}

/** `actors` with `actor` added if it is not there yet. */
export function withActor(actors: readonly Actor[], actor: Actor): Actor[] {
  return actors.some((a) => sameActor(a, actor)) ? [...actors] : [...actors, actor];
}

/** A one-line name for an actor ("you", "random policy", "gpt-4o (model)"). */
export function actorLabel(actor: Actor): string {
  if (actor.kind === 'human') return actor.name ? `person ${actor.name}` : 'person';
  return actor.name ? (actor.kind === 'model' ? `${actor.name} (model)` : actor.name) : actor.kind;
}

/** The header of a new episode from its machine context (the reset has happened). */
export function episodeHeader(
  context: { env: { id: string; backendOf?(state: never): EpisodeHeader['shell'] }; task: { id: string }; seed: number; maxSteps: number; initialObservation: string; state?: unknown },
  fields: { id: string; driver: DriverInfo; view: EpisodeHeader['view']; appVersion: string; startedAt: string; branch?: EpisodeHeader['branch'] },
): EpisodeHeader {
  const header: EpisodeHeader = {
    format: RECORD_FORMAT,
    id: fields.id,
    env: context.env.id,
    task: context.task.id,
    seed: context.seed,
    driver: fields.driver,
    actors: [],
    view: fields.view,
    maxSteps: context.maxSteps,
    initialObservation: context.initialObservation,
    startedAt: fields.startedAt,
    updatedAt: fields.startedAt,
    appVersion: fields.appVersion,
  };
  if (fields.branch) header.branch = fields.branch;
  // What the episode really ran on (a Linux choice without an image falls back to the embedded shell).
  const backend = context.state === undefined ? undefined : context.env.backendOf?.(context.state as never);
  if (backend) header.shell = backend;
  return header;
}

/**
 * A headless episode as one record (CLI runs, reference runs, tests): the header, every step the
 * machine kept, who acted, and the outcome when there is one. The app records step by step instead.
 */
export function recordOfEpisode(
  context: Parameters<typeof episodeHeader>[0] & { history: readonly Parameters<typeof toStepRecord>[1][] },
  fields: { id: string; driver: DriverInfo; appVersion: string; startedAt: string; endedAt: string; outcome?: Outcome },
): EpisodeRecord {
  const header = episodeHeader(context, { ...fields, view: 'text' });
  const steps = context.history.map((h) => toStepRecord(fields.id, h, 'text', fields.endedAt));
  const actors = steps.reduce((list, st) => withActor(list, st.actor), header.actors);
  if (!fields.outcome) return { header: { ...header, actors }, steps };
  return { header: { ...header, actors, updatedAt: fields.endedAt, endedAt: fields.endedAt, outcome: fields.outcome }, steps };
}

/** What the episode machine keeps per step (envs/core/episode.ts HistoryEntry), as a step record. */
export function toStepRecord(
  episodeId: string,
  entry: {
    t: number;
    action: string;
    observation: string;
    valid: boolean;
    reward: number;
    score: number;
    terminated: boolean;
    truncated: boolean;
    progress?: number;
    info?: Record<string, unknown>;
    ms: number;
    actor: Actor;
    view?: EpisodeHeader['view'];
    model?: ModelTurn;
  },
  fallbackView: EpisodeHeader['view'],
  at: string = new Date().toISOString(),
): StepRecord {
  const record: StepRecord = {
    episodeId,
    t: entry.t,
    action: entry.action,
    observation: entry.observation,
    valid: entry.valid,
    reward: entry.reward,
    score: entry.score,
    terminated: entry.terminated,
    truncated: entry.truncated,
    view: entry.view ?? fallbackView,
    actor: entry.actor,
    ms: Math.round(entry.ms * 1000) / 1000,
    at,
  };
  if (entry.progress !== undefined) record.progress = entry.progress;
  if (entry.info !== undefined) record.info = entry.info;
  if (entry.model !== undefined) record.model = entry.model;
  return record;
}

// ---------------------------------------------------------------------------
// Version 1 → 2

/**
 * A version 1 header (no format, no actors) as version 2: every step of a version 1
 * episode was taken by its driver, the only player it could record.
 */
export function migrateHeaderV1(h: Record<string, unknown>): Record<string, unknown> {
  if (h.format === RECORD_FORMAT) return h;
  const driver = isPlainObject(h.driver) ? h.driver : {};
  const steps = isPlainObject(h.outcome) && typeof h.outcome.steps === 'number' ? h.outcome.steps : undefined;
  const actor = typeof driver.kind === 'string' ? actorOf(driver as DriverInfo) : undefined;
  // An episode with no steps yet has had no actor; otherwise its driver played them all.
  const actors = actor && steps !== 0 ? [actor] : [];
  return { format: RECORD_FORMAT, ...h, actors };
}

/** A version 1 step (no actor; model facts flattened) as version 2. `driver` is the episode's header driver. */
export function migrateStepV1(s: Record<string, unknown>, driver: unknown): Record<string, unknown> {
  if ('actor' in s) return s;
  const d = isPlainObject(driver) && typeof driver.kind === 'string' ? (driver as DriverInfo) : { kind: 'human' as const };
  const out: Record<string, unknown> = { ...s, actor: actorOf(d) };
  const m = s.model;
  if (isPlainObject(m) && Array.isArray(m.prompt)) {
    const replies = Array.isArray(m.replies) ? m.replies : [];
    const last = m.prompt.length - 1;
    out.model = {
      model: m.model,
      calls: m.prompt.map((messages, i) => ({
        messages,
        reply: replies[i] ?? '',
        tokens: null,
        latencyMs: null,
        finishReason: i === last ? (m.finishReason ?? null) : null,
        retries: 0,
      })),
      reply: m.reply,
      tokens: m.tokens ?? null,
      latencyMs: m.latencyMs,
    };
  }
  return out;
}
