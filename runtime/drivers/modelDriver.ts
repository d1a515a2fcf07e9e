/**
 * The model driver: plays an episode with a ChatClient under the benchmark's prompt
 * protocol. Each step: wait until the episode awaits an action, build the prompt
 * from the history, ask the model (SmartPlay: two questions; the second reply is the
 * action text), and send ACT as the play view does, with the model as the actor and a
 * typed model turn (each call's messages, raw reply, tokens, latency, retries). The environment parses the text, so
 * parse failures are the model's, counted as the benchmark counts them.
 *
 * Endings: the episode ends → 'finished'; the signal aborts → 'aborted' (no ACT is
 * sent for an interrupted step); a 'context-limit' model error ends the episode with
 * END {reason: 'Context Limit Exceeded'} — under SmartPlay's protocol only once even an empty
 * history does not fit (the oldest history lines are dropped first, recorded as `historyCut`
 * on the call); any other error stops the driver with the
 * error and leaves the episode open (every step taken is already in the history).
 */
import type { EpisodeActor, HistoryEntry } from '../../envs/core/episode.ts';
import type { EnvDefinition, TaskInfo } from '../../envs/core/types.ts';
import type { ChatMessage, ProtocolParams, SamplingDefaults } from '../../envs/core/prompts/index.ts';
import type { Suite } from '../../envs/core/suite.ts';
import { conversationFor, suiteOf } from '../../suites/index.ts';
import type { ModelCall, ModelTurn } from '../records.ts';
import { ModelError, type ChatClient, type ChatResult } from '../models/types.ts';
import { actAndAwait, awaitTurn, endedResult, isResult, type DriverResult, type StepGate } from './common.ts';
import { transcriptOf } from '../../envs/core/episode.ts';

export type { DriverResult, DriverStop } from './common.ts';

/** Sampling settings: the benchmark's defaults (samplingDefaults) or a run's own. */
export type Sampling = SamplingDefaults;

export interface ModelDriverOptions {
  actor: EpisodeActor;
  env: EnvDefinition<any, any>;
  task: TaskInfo;
  client: ChatClient;
  /** The suite whose conversation the model gets (default: the environment's first). */
  suite?: string;
  /** Conversation parameters instead of the environment's own for this task (another AgentBoard prompt file, …). */
  params?: ProtocolParams;
  /** Override the benchmark's sampling defaults (samplingDefaults). */
  temperature?: number;
  maxTokens?: number;
  stop?: string[];
  stream?: boolean;
  /** Steps this run may take at most; the episode's own limit applies regardless. */
  maxSteps?: number;
  signal?: AbortSignal;
  /** Pause / single-step control for a watched run (awaited before each action). */
  gate?: StepGate;
  /** A call starts (for a "thinking" indicator and to show the prompt). */
  onCall?: (info: { step: number; call: number; messages: ChatMessage[] }) => void;
  /** A piece of a streamed reply. */
  onDelta?: (info: { step: number; call: number; delta: string; text: string }) => void;
  onStep?: (entry: HistoryEntry) => void;
}

/** The sampling a run uses: the caller's settings over the suite's (AgentBoard's prompt file may set maxTokens). */
export function resolveSampling(suite: Suite, options: Sampling, params: ProtocolParams = {}): Sampling {
  const defaults = suite.sampling(params);
  const out: Sampling = {};
  const temperature = options.temperature ?? defaults.temperature;
  const maxTokens = options.maxTokens ?? defaults.maxTokens;
  const stop = options.stop ?? defaults.stop;
  if (temperature !== undefined) out.temperature = temperature;
  if (maxTokens !== undefined) out.maxTokens = maxTokens;
  if (stop !== undefined) out.stop = stop;
  return out;
}

export async function runModelDriver(options: ModelDriverOptions): Promise<DriverResult> {
  const { actor, env, task, client, signal } = options;
  const suite = suiteOf(env, options.suite, task);
  const params: ProtocolParams = { ...(options.params ?? env.conversation(suite.id, task)) };
  const sampling = resolveSampling(suite, options, params);
  // A conversation that fits its history to the context (AgentBoard's) leaves room for the reply budget actually requested.
  if (sampling.maxTokens !== undefined) params.replyBudget = sampling.maxTokens;
  let steps = 0;
  const actorFacts = { kind: 'model' as const, name: client.model };
  const clean = (text: string): string => client.redact?.(text) ?? text;

  for (;;) {
    const idle = await awaitTurn(actor, steps, options);
    if (isResult(idle)) return idle;

    const stepNo = idle.context.history.length + 1;
    const plan = conversationFor(env, task, transcriptOf(idle.context), { suite: suite.id, params });
    const calls: ModelCall[] = [];
    const replies: string[] = [];
    // SmartPlay marks its history as the part an API may cut: lines dropped so far this step.
    let dropped = 0;
    try {
      for (let call = 0; call < plan.calls; call++) {
        const full = plan.messages(call, replies);
        let messages = dropped > 0 && suite.historyCut ? suite.historyCut.cut(full, dropped) : full;
        let result: ChatResult;
        for (;;) {
          options.onCall?.({ step: stepNo, call, messages });
          try {
            result = await client.complete({
              messages,
              ...sampling,
              stream: options.stream,
              signal,
              onDelta: options.onDelta ? (delta, text) => options.onDelta!({ step: stepNo, call, delta, text }) : undefined,
            });
            break;
          } catch (err) {
            const next = suite.historyCut && err instanceof ModelError && err.kind === 'context-limit' ? suite.historyCut.next(full, dropped) : null;
            if (!next) throw err;
            dropped = next.droppedLines;
            messages = next.messages;
          }
        }
        // A reply that echoes the key is masked before it is recorded or sent as the action.
        const reply = clean(result.text);
        replies.push(reply);
        const record: ModelCall = {
          messages: messages.map((m) => ({ role: m.role, content: clean(m.content) })),
          reply,
          tokens: result.usage ? { prompt: result.usage.promptTokens, completion: result.usage.completionTokens } : null,
          latencyMs: Math.round(result.latencyMs * 1000) / 1000,
          finishReason: result.finishReason,
          retries: result.retries ?? 0,
        };
        if (result.tokensPerSecond !== undefined && Number.isFinite(result.tokensPerSecond)) record.tokensPerSecond = Math.round(result.tokensPerSecond * 10) / 10;
        if (dropped > 0) record.historyCut = dropped;
        calls.push(record);
      }
    } catch (err) {
      if (signal?.aborted || (err instanceof ModelError && err.kind === 'aborted')) return { stop: 'aborted', steps };
      const error = err instanceof Error ? err : new Error(String(err));
      if (err instanceof ModelError && err.kind === 'context-limit') {
        const now = actor.getSnapshot();
        if (now.status === 'active') actor.send({ type: 'END', reason: 'Context Limit Exceeded', message: error.message });
        const after = actor.getSnapshot();
        return { stop: after.status === 'done' ? 'finished' : 'error', steps, error, finishReason: after.context.finishReason };
      }
      return { stop: 'error', steps, error };
    }

    // Someone else may have ended or moved the episode while the model was thinking.
    const current = actor.getSnapshot();
    if (current.status !== 'active') return endedResult(current, steps);
    if (!current.matches('awaitingAction') || current.context.history.length !== stepNo - 1) continue;

    const model = modelTurn(client.model, calls);
    const entry = await actAndAwait(actor, plan.action(replies), { actor: actorFacts, view: 'text', model }, steps, signal);
    if (isResult(entry)) return entry;
    steps++;
    options.onStep?.(entry);
  }
}

/** One step's model turn from its calls: the action's reply, and tokens and latency summed. */
export function modelTurn(model: string, calls: ModelCall[]): ModelTurn {
  let tokens: ModelTurn['tokens'] = { prompt: 0, completion: 0 };
  let latencyMs = 0;
  for (const c of calls) {
    tokens = tokens && c.tokens ? { prompt: tokens.prompt + c.tokens.prompt, completion: tokens.completion + c.tokens.completion } : null;
    latencyMs += c.latencyMs ?? 0;
  }
  return { model, calls, reply: calls.at(-1)?.reply ?? '', tokens, latencyMs: Math.round(latencyMs * 1000) / 1000 };
}
