/**
 * Prompt builders, one per benchmark's conversation: from the manual, the observations and
 * actions so far and the conversation's parameters to the chat requests a model driver sends
 * for one step, and from the model's replies to the action text sent to the environment.
 * Each suite (suites/<id>/) puts one of them to work as its conversation:
 *
 *   SmartPlay  — two calls per step (smartplay.ts); the second reply is the action text.
 *   AgentBoard — one call (agentboard.ts); the reply's first line is the action (the
 *                agent parses, upstream), or the open-model parser when asked.
 *   AgentBench — one call (agentbench.ts); the raw reply is the action (the task parses).
 */
import type { ChatMessage } from '../smartplay.ts';
import type { AgentBoardParams } from './agentboard.ts';
import type { OpeningTurn } from './agentbench.ts';

export * from './smartplay.ts';
export * from './agentboard.ts';
export * from './agentbench.ts';
export * from './tokens.ts';
export type { ChatMessage };

/** What every protocol is built from. */
export interface PromptContext {
  /** The environment's manual / instruction for the task. */
  manual: string;
  /** From the reset observation to the current one. */
  observations: readonly string[];
  /** actions[i] is the action text that led to observations[i + 1]. */
  actions: readonly string[];
}

/** A conversation's parameters for one task (EnvDefinition.conversation gives them per suite). */
export interface ProtocolParams {
  /** The reply budget a run requests (max tokens), where the conversation fits its history to the context minus it. */
  replyBudget?: number;
  /** SmartPlay: how many earlier observations the history shows (the environment's HistoryTracker size). */
  smartplay?: {
    historyWindow: number;
    /**
     * Where the game's reset takes a step of its own before its first observation (SmartPlay's
     * Crafter takes a noop): the tracker holds that step's observation, this text before the reset
     * observation, as step 0, so every history entry is numbered one higher.
     */
    internalStepPrefix?: string;
  };
  /**
   * AgentBoard: the prompt file's fields (system_msg, instruction, examples) and the goal.
   * Without an `instruction` the environment's manual is taken as the whole prompt head
   * (instruction, examples, goal and help lines, as the BabyAI environment gives it) and
   * followed by one newline before the history; `system_msg` then defaults to AgentBoard's
   * "You are a helpful assistant." unless given.
   */
  agentboard?: Partial<AgentBoardParams> & {
    /** Parse replies with VanillaAgent's action_parser_for_special_llms (default true, as AgentBoard's evaluation runs); false takes the first line. */
    openModelParser?: boolean;
  };
  /** AgentBench: the task's fixed opening turns (OS) or acknowledgement (DB: "Ok."), and the segment limit. */
  agentbench?: { ack?: string; opening?: readonly OpeningTurn[]; segmentLimit?: number; olderTurnsCut?: string };
}

/** Sampling settings a benchmark fixes (the driver's own settings override them). */
export interface SamplingDefaults {
  temperature?: number;
  maxTokens?: number;
  stop?: string[];
}

/** How one step is asked: `calls` requests in sequence, then the action from their replies. */
export interface PromptPlan {
  /** The suite whose conversation this is. */
  suite: string;
  calls: number;
  /** The messages of call `call` (0-based), given the replies of the earlier calls of this step. */
  messages(call: number, replies: readonly string[]): ChatMessage[];
  /** The text sent to the environment as the action. */
  action(replies: readonly string[]): string;
  defaults: SamplingDefaults;
}

/**
 * What a model is shown at this point, as the text view renders it: the messages of the
 * step's first request, then each later request's new question (SmartPlay asks a second
 * question after the model has answered the first). A person in the text view sees these.
 */
export interface ModelView {
  messages: ChatMessage[];
  followUps: ChatMessage[];
}

export function modelView(plan: PromptPlan): ModelView {
  const messages = plan.messages(0, []);
  const followUps: ChatMessage[] = [];
  const replies: string[] = [];
  for (let call = 1; call < plan.calls; call++) {
    replies.push('');
    const next = plan.messages(call, replies);
    followUps.push(next[next.length - 1]);
  }
  return { messages, followUps };
}
