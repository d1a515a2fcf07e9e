/**
 * SmartPlay's driver protocol (suites/smartplay/README.md, "Upstream"; SmartPlay's
 * examples/experiment.py): every step asks two questions in sequence over the same
 * system context; the first answer is kept as an assistant turn before the second
 * question, and the second answer is the action text (the environment matches it to
 * an action).
 */
import { smartplayContext, type ChatMessage } from '../smartplay.ts';

/** The two questions, verbatim (the first ends with ", " as upstream). */
export const SMARTPLAY_QUESTIONS = [
  "What is the best action to take? Let's think step by step, ",
  'Choose the best executable action from the list of all actions. Write the exact chosen action.',
] as const;

export interface SmartPlayPromptInput {
  /** The environment's manual (may be empty: then no manual message). */
  manual: string;
  /** From the reset observation to the current one. */
  observations: readonly string[];
  /** The environment's history window (HistoryTracker size). */
  historyWindow: number;
}

/**
 * The messages for question `question` (0 or 1) of the current step.
 * `answers` holds the replies to the earlier questions of this step (the first
 * answer is needed for question 1).
 */
export function smartplayPrompt(input: SmartPlayPromptInput, question: number, answers: readonly string[] = []): ChatMessage[] {
  if (question < 0 || question >= SMARTPLAY_QUESTIONS.length) throw new RangeError(`SmartPlay asks ${SMARTPLAY_QUESTIONS.length} questions; there is no question ${question}.`);
  if (answers.length < question) throw new Error(`Question ${question + 1} needs the answers to the questions before it.`);
  const messages = smartplayContext(input.manual, input.observations, input.historyWindow);
  for (let q = 0; q < question; q++) {
    messages.push({ role: 'user', content: SMARTPLAY_QUESTIONS[q] });
    messages.push({ role: 'assistant', content: answers[q] });
  }
  messages.push({ role: 'user', content: SMARTPLAY_QUESTIONS[question] });
  return messages;
}

/**
 * SmartPlay's context overflow (examples/experiment.py): compose_ingame_prompt returns
 * its messages together with index 2, the history message, as the part an API may cut
 * when the prompt exceeds the model's context. These two pure functions cut it: the
 * oldest lines of the history go first, the rest of the prompt is never touched.
 */

/** The history message's heading (HistoryTracker.describe). */
const HISTORY_HEADING = /^Most recent \d+ steps of the player's in-game observation:/;

export interface HistoryCut {
  messages: ChatMessage[];
  /** Lines of the history dropped so far, oldest first (the heading is not counted). */
  droppedLines: number;
  /** Lines the history had below its heading. */
  historyLines: number;
  /** True when every history line is gone (the message itself is then left out). */
  exhausted: boolean;
}

/** Index of the history message in a SmartPlay prompt, or -1 when the prompt has none. */
export function historyIndex(messages: readonly ChatMessage[]): number {
  return messages.findIndex((m) => m.role === 'system' && HISTORY_HEADING.test(m.content));
}

/** The history's lines below its heading and the blank line after it. */
function historyBody(content: string): string[] {
  const lines = content.split('\n');
  let start = 1;
  while (start < lines.length && lines[start] === '') start++;
  return lines.slice(start);
}

/**
 * `messages` with the oldest `drop` lines of the history message removed (blank lines
 * left at the top of what remains are removed too, the heading stays); with every line
 * dropped the history message is left out, as SmartPlay leaves out an empty history.
 * `messages` is not changed.
 */
export function cutHistory(messages: readonly ChatMessage[], drop: number): HistoryCut {
  const at = historyIndex(messages);
  if (at === -1) return { messages: [...messages], droppedLines: 0, historyLines: 0, exhausted: true };
  const content = messages[at].content;
  const body = historyBody(content);
  const dropped = Math.max(0, Math.min(Math.trunc(drop), body.length));
  const out = [...messages];
  const rest = body.slice(dropped);
  while (rest.length > 0 && rest[0] === '') rest.shift();
  if (rest.length === 0) out.splice(at, 1);
  else if (dropped > 0) out[at] = { role: 'system', content: `${content.split('\n')[0]}\n\n${rest.join('\n')}` };
  return { messages: out, droppedLines: rest.length === 0 ? body.length : dropped, historyLines: body.length, exhausted: rest.length === 0 };
}

/** How many requests a cut may take at most: each retry drops another 1/CUT_STEPS of the history. */
export const CUT_STEPS = 8;

/**
 * The prompt to try after an endpoint answered that `messages` cut by `dropped` lines is
 * too long: another eighth of the history's lines dropped (at least one line), up to the
 * whole history, so a fit is found within CUT_STEPS requests and at most an eighth more is
 * dropped than needed. Null when nothing is left to cut: the episode then ends
 * (Context Limit Exceeded).
 */
export function nextHistoryCut(messages: readonly ChatMessage[], dropped: number): HistoryCut | null {
  const current = cutHistory(messages, dropped);
  if (current.exhausted) return null;
  return cutHistory(messages, dropped + Math.max(1, Math.ceil(current.historyLines / CUT_STEPS)));
}
