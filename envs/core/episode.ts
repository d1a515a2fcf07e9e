/**
 * The episode machine: one XState machine for every environment.
 *   loading ──► awaitingAction ⇄ stepping ──► done  (a failed reset goes to done as Task Error)
 * The environment, task and seed come in as input and live in the context, so there is
 * one static definition (XState prepares its transitions once for all episodes).
 * Drivers (a person's buttons, a model, a script) send ACT {text, actor}; the machine
 * applies the step, keeps the history with who took each step, enforces the step limit
 * and names the finish reason. Synchronous environments step inside the ACT transition
 * (no actor, no microtask), so the machine adds little per step; asynchronous ones
 * (shell, database) step in an invoked promise actor that CANCEL or GIVE_UP aborts.
 * The `busy` tag is on while the environment is working (reset or an async step).
 */
import { assign, createActor, fromPromise, setup, type Actor as XActor } from 'xstate';
import type { ModelTurn, Outcome } from './outcome.ts';
import type { Actor, EnvDefinition, FinishReason, Init, Step, TaskInfo, ViewKind } from './types.ts';

export interface EpisodeOptions {
  seed: number;
  /** Defaults to the environment's own limit for the task. */
  maxSteps?: number;
}

/** What an episode actor is started with. */
export interface EpisodeInput extends EpisodeOptions {
  env: EnvDefinition;
  task: TaskInfo;
}

/** What a step's ACT says besides the action text. */
export interface ActFacts {
  /** Who took the step. */
  actor: Actor;
  /** The view a person was using (a driver reads the text view). */
  view?: ViewKind;
  /** What a model saw and said for this step. */
  model?: ModelTurn;
}

/** One step as the machine keeps it. */
export interface HistoryEntry extends Omit<Step<unknown>, 'state' | 'finishReason'>, ActFacts {
  t: number;
  action: string;
  /** Wall-clock milliseconds the environment took for this step. */
  ms: number;
}

export interface EpisodeContext {
  env: EnvDefinition;
  task: TaskInfo;
  seed: number;
  maxSteps: number;
  state: unknown;
  initialObservation: string;
  observation: string;
  score: number;
  history: HistoryEntry[];
  /** Filled by CHECK_VALID_ACTIONS; cleared after each step. */
  validActions: string[] | null;
  finishReason: FinishReason | null;
  /** Action in flight (async steps only). */
  pending: (ActFacts & { text: string; startedAt: number }) | null;
  /** Last error message (a failed reset, a step that threw, a cancelled step). */
  error: string | null;
}

export type EpisodeEvent =
  | ({ type: 'ACT'; text: string } & ActFacts)
  | { type: 'CHECK_VALID_ACTIONS' }
  | { type: 'GIVE_UP' }
  | { type: 'CANCEL' }
  /** A driver ends the episode for a reason of the benchmark's (e.g. the model's context overflowed). */
  | { type: 'END'; reason: FinishReason; message?: string };

/** How an episode ended: the record's outcome (outcome.ts), one type for both. */
export type EpisodeOutput = Outcome;

const now = (): number => performance.now();

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The context after a step: history appended, finish reason decided. */
function applyStep(ctx: EpisodeContext, step: Step<unknown>, act: ActFacts & { text: string }, ms: number): Partial<EpisodeContext> {
  const t = ctx.history.length + 1;
  let finishReason: FinishReason | null = step.finishReason ?? null;
  let truncated = step.truncated;
  if (!finishReason && step.terminated) finishReason = 'Complete';
  if (!finishReason && t >= ctx.maxSteps) {
    truncated = true;
    finishReason = ctx.env.limitKind === 'horizon' ? 'Complete' : 'Task Limit Exceeded';
  }
  const entry: HistoryEntry = {
    t,
    action: act.text,
    observation: step.observation,
    reward: step.reward,
    valid: step.valid,
    terminated: step.terminated,
    truncated,
    score: step.score,
    ms,
    actor: act.actor,
  };
  if (step.progress !== undefined) entry.progress = step.progress;
  if (step.info !== undefined) entry.info = step.info;
  if (act.view !== undefined) entry.view = act.view;
  if (act.model !== undefined) entry.model = act.model;
  return {
    state: step.state,
    observation: step.observation,
    score: step.score,
    history: [...ctx.history, entry],
    validActions: null,
    finishReason,
    pending: null,
    error: null,
  };
}

function factsOf(event: ActFacts & { text: string }): ActFacts & { text: string } {
  const facts: ActFacts & { text: string } = { text: event.text, actor: event.actor };
  if (event.view !== undefined) facts.view = event.view;
  if (event.model !== undefined) facts.model = event.model;
  return facts;
}

export const episodeMachine = setup({
  types: {
    context: {} as EpisodeContext,
    events: {} as EpisodeEvent,
    input: {} as EpisodeInput,
    output: {} as EpisodeOutput,
  },
  actors: {
    reset: fromPromise<Init<unknown>, { env: EnvDefinition; task: TaskInfo; seed: number }>(async ({ input }) => input.env.reset(input.task, input.seed)),
    step: fromPromise<Step<unknown>, { env: EnvDefinition; state: unknown; text: string }>(async ({ input, signal }) => input.env.step(input.state, input.text, signal)),
  },
  guards: {
    finished: ({ context }) => context.finishReason !== null,
    syncEnv: ({ context }) => context.env.asyncStep !== true,
  },
  actions: {
    started: assign(({ event }) => {
      const init = (event as unknown as { output: Init<unknown> }).output;
      return { state: init.state, initialObservation: init.observation, observation: init.observation, score: init.score };
    }),
    resetFailed: assign({ finishReason: 'Task Error', error: ({ event }) => `The task could not start: ${errorText((event as unknown as { error: unknown }).error)}` }),
    /** A synchronous step, in place: the environment is a pure function of state and text. */
    stepInPlace: assign(({ context, event }) => {
      if (event.type !== 'ACT') return {};
      const started = now();
      try {
        const step = (context.env.step as (s: unknown, t: string) => Step<unknown>)(context.state, event.text);
        return applyStep(context, step, factsOf(event), now() - started);
      } catch (err) {
        // An environment must not throw on bad text; if one does, keep the episode alive and say so.
        return { error: `The environment failed on this action: ${errorText(err)}` };
      }
    }),
    holdAction: assign({ pending: ({ event }) => (event.type === 'ACT' ? { ...factsOf(event), startedAt: now() } : null) }),
    stepDone: assign(({ context, event }) => {
      const pending = context.pending!;
      return applyStep(context, (event as unknown as { output: Step<unknown> }).output, pending, now() - pending.startedAt);
    }),
    stepFailed: assign({ pending: null, error: ({ event }) => `The environment failed on this action: ${errorText((event as unknown as { error: unknown }).error)}` }),
    stepCancelled: assign({ pending: null, error: 'The step was cancelled.' }),
    listValidActions: assign({ validActions: ({ context }) => context.env.validActions(context.state) }),
    gaveUp: assign({ pending: null, finishReason: 'Given Up' }),
    ended: assign(({ event }) => (event.type === 'END' ? { pending: null, finishReason: event.reason, error: event.message ?? null } : {})),
    release: ({ context }) => {
      if (context.state !== undefined) context.env.dispose?.(context.state);
    },
  },
}).createMachine({
  id: 'episode',
  context: ({ input }) => ({
    env: input.env,
    task: input.task,
    seed: input.seed,
    maxSteps: input.maxSteps ?? input.env.maxSteps(input.task),
    state: undefined,
    initialObservation: '',
    observation: '',
    score: 0,
    history: [],
    validActions: null,
    finishReason: null,
    pending: null,
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'reset',
        input: ({ context }) => ({ env: context.env, task: context.task, seed: context.seed }),
        onDone: { target: 'awaitingAction', actions: 'started' },
        onError: { target: 'done', actions: 'resetFailed' },
      },
      on: { GIVE_UP: { target: 'done', actions: 'gaveUp' } },
    },
    awaitingAction: {
      // Checked after every transition, including the in-place synchronous step.
      always: { guard: 'finished', target: 'done' },
      on: {
        ACT: [{ guard: 'syncEnv', actions: 'stepInPlace' }, { target: 'stepping', actions: 'holdAction' }],
        CHECK_VALID_ACTIONS: { actions: 'listValidActions' },
        GIVE_UP: { target: 'done', actions: 'gaveUp' },
        END: { target: 'done', actions: 'ended' },
      },
    },
    stepping: {
      tags: ['busy'],
      invoke: {
        src: 'step',
        input: ({ context }) => ({ env: context.env, state: context.state, text: context.pending!.text }),
        onDone: { target: 'awaitingAction', actions: 'stepDone' },
        onError: { target: 'awaitingAction', actions: 'stepFailed' },
      },
      on: {
        // Leaving the state stops the invoked actor, which aborts its signal.
        CANCEL: { target: 'awaitingAction', actions: 'stepCancelled' },
        GIVE_UP: { target: 'done', actions: 'gaveUp' },
        END: { target: 'done', actions: 'ended' },
      },
    },
    done: { type: 'final', entry: 'release' },
  },
  output: ({ context }) => ({
    score: context.score,
    success: context.state === undefined ? null : context.env.success(context.state),
    steps: context.history.length,
    finishReason: context.finishReason ?? 'Given Up',
  }),
});

export type EpisodeMachine = typeof episodeMachine;
export type EpisodeActor = XActor<EpisodeMachine>;
export type EpisodeSnapshot = ReturnType<EpisodeActor['getSnapshot']>;

/** An episode actor (not started) for an environment, task and seed. */
export function createEpisode<S, T extends TaskInfo>(env: EnvDefinition<S, T>, task: T, options: EpisodeOptions): EpisodeActor {
  return createActor(episodeMachine, { input: { env: env as EnvDefinition, task, seed: options.seed, maxSteps: options.maxSteps } });
}

/** The episode so far as a prompt sees it: its seed, the observations from the reset one on, and the actions between them. */
export function transcriptOf(context: Pick<EpisodeContext, 'seed' | 'initialObservation' | 'history'>): { seed: number; observations: string[]; actions: string[] } {
  return {
    seed: context.seed,
    observations: [context.initialObservation, ...context.history.map((h) => h.observation)],
    actions: context.history.map((h) => h.action),
  };
}
