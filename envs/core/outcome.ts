/**
 * How an episode ended (Outcome) and what a model saw and said for a step (ModelTurn): the
 * episode machine (episode.ts) carries them and the record format (runtime/records.ts)
 * stores them. The valibot schemas are the single definition; the types are inferred.
 */
import * as v from 'valibot';
import { FINISH_REASONS } from './types.ts';

export const finite = (what = 'a finite number') => v.pipe(v.number(), v.finite(`expected ${what}`));
export const whole = (min: number) => v.pipe(v.number(), v.integer('expected a whole number'), v.minValue(min, `expected a number of at least ${min}`));

export const ChatMessageSchema = v.object({ role: v.picklist(['system', 'user', 'assistant']), content: v.string() });
const TokensSchema = v.nullable(v.object({ prompt: finite(), completion: finite() }));

/** One request to a model: the messages sent, the raw reply, and what it cost. */
export const ModelCallSchema = v.object({
  messages: v.array(ChatMessageSchema),
  reply: v.string(),
  /** Null when the endpoint did not report usage. */
  tokens: TokensSchema,
  /** Null when unknown (records migrated from version 1 kept only the step's total). */
  latencyMs: v.nullable(finite()),
  finishReason: v.nullable(v.string()),
  /** Attempts after the first (rate limits, server errors) before this call succeeded. */
  retries: whole(0),
  /** Set on a call that failed (the step then has no action from it). */
  error: v.optional(v.string()),
  /** Generated tokens per second, where the engine measured it (in-browser engines). */
  tokensPerSecond: v.optional(finite()),
  /** History lines dropped to fit the context (SmartPlay's cut), when any were. */
  historyCut: v.optional(whole(1)),
});

/** What a model saw and said for one step (SmartPlay asks two questions: two calls). */
export const ModelTurnSchema = v.object({
  model: v.string(),
  calls: v.array(ModelCallSchema),
  /** The raw reply the action came from. */
  reply: v.string(),
  /** Summed over the calls; null when any call's usage is unknown. */
  tokens: TokensSchema,
  /** Summed over the calls. */
  latencyMs: finite(),
});

export const OutcomeSchema = v.object({
  score: finite(),
  success: v.nullable(v.boolean()),
  steps: whole(0),
  finishReason: v.picklist(FINISH_REASONS),
});

export type ChatMessageRecord = v.InferOutput<typeof ChatMessageSchema>;
export type ModelCall = v.InferOutput<typeof ModelCallSchema>;
export type ModelTurn = v.InferOutput<typeof ModelTurnSchema>;
export type Outcome = v.InferOutput<typeof OutcomeSchema>;
