/**
 * One Driver type for everyone who plays an episode without a person's hands: a model,
 * a scripted policy, or a list of texts (stdin). The CLI calls it an "agent" (`--agent`);
 * the app calls it a "driver"; it is the same thing. `info` is what the episode header
 * records; `run` plays the episode by sending ACT events until it ends or stops.
 */
import type { EpisodeActor, HistoryEntry } from '../../envs/core/episode.ts';
import { playActions } from '../../envs/core/runner.ts';
import type { EnvDefinition, TaskInfo } from '../../envs/core/types.ts';
import type { PolicyKind } from '../../envs/core/policies.ts';
import type { DriverInfo } from '../records.ts';
import type { ChatClient } from '../models/types.ts';
import type { DriverResult, StepGate } from './common.ts';
import { modelDriverInfo, scriptedDriverInfo } from './driverInfo.ts';
import { resolveSampling, runModelDriver } from './modelDriver.ts';
import { runScriptedDriver } from './scriptedDriver.ts';
import { suiteOf } from '../../suites/index.ts';

export interface DriverHooks {
  signal?: AbortSignal;
  /** Pause / single-step control for a watched run. */
  gate?: StepGate;
  onStep?: (entry: HistoryEntry) => void;
  /** A model's reply so far, as it streams ('' when a new call starts). */
  onDelta?: (text: string) => void;
}

export interface Driver {
  info: DriverInfo;
  run(actor: EpisodeActor, hooks?: DriverHooks): Promise<DriverResult>;
}

/** A random (uniform over valid actions, seeded) or oracle (privileged) policy. */
export function policyDriver(kind: PolicyKind, env: EnvDefinition, task: TaskInfo, options: { seed?: number; delayMs?: number } = {}): Driver {
  if (kind === 'oracle' && !env.oracleAction) throw new Error(`${env.title} has no oracle.`);
  const seed = options.seed ?? 0;
  return {
    info: scriptedDriverInfo(kind, { seed }),
    run: (actor, hooks = {}) => runScriptedDriver({ actor, env, task, kind, seed, delayMs: options.delayMs, signal: hooks.signal, gate: hooks.gate, onStep: hooks.onStep }),
  };
}

export interface ModelDriverSettings {
  /** The suite whose conversation the model gets (default: the environment's first). */
  suite?: string;
  temperature?: number;
  maxTokens?: number;
  stream?: boolean;
}

/** A model behind a ChatClient (an OpenAI-compatible endpoint, an in-browser engine), under the benchmark's protocol. */
export function modelDriver(client: ChatClient, env: EnvDefinition, task: TaskInfo, settings: ModelDriverSettings = {}): Driver {
  const suite = suiteOf(env, settings.suite, task);
  const params = env.conversation(suite.id, task);
  const { temperature, maxTokens } = settings;
  return {
    info: modelDriverInfo(client, suite.id, resolveSampling(suite, { temperature, maxTokens }, params)),
    run: (actor, hooks = {}) =>
      runModelDriver({
        actor,
        env,
        task,
        client,
        suite: suite.id,
        params,
        temperature,
        maxTokens,
        stream: settings.stream,
        signal: hooks.signal,
        gate: hooks.gate,
        onCall: () => hooks.onDelta?.(''),
        onDelta: hooks.onDelta ? (d) => hooks.onDelta!(d.text) : undefined,
        onStep: hooks.onStep,
      }),
  };
}

/** A thrown error from a text source that ends the run with a message (e.g. a bad stdin line). */
export class TextSourceError extends Error {}

/** Plays the given texts in order (the CLI's stdin); recorded as a script named `name`. */
export function textDriver(texts: Iterable<string> | AsyncIterable<string>, name = 'stdin'): Driver {
  const info: DriverInfo = { kind: 'script', name };
  return {
    info,
    run: async (actor, hooks = {}) => {
      const before = actor.getSnapshot().context.history.length;
      const steps = () => actor.getSnapshot().context.history.length - before;
      try {
        await playActions(actor, texts, hooks.onStep, { actor: { kind: 'script', name }, view: 'text' });
      } catch (err) {
        if (err instanceof TextSourceError) return { stop: 'error', steps: steps(), error: err };
        throw err;
      }
      const s = actor.getSnapshot();
      if (s.status === 'done') return { stop: 'finished', steps: steps(), finishReason: s.context.finishReason };
      // The texts ran out with the episode still open.
      return { stop: 'no-action', steps: steps() };
    },
  };
}
