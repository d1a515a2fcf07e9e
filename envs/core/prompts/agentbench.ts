/**
 * AgentBench's conversation protocol (text-prompt version; suites/agentbench/README.md,
 * "Upstream", and for each task's turns envs/os/README.md and envs/db/README.md;
 * AgentBench's src/server/task.py Session.filter_messages): the task's first user
 * message is the instruction, then the agent's replies and the environment's
 * observations alternate as assistant and user turns. Before each request the history
 * is cut to the first message plus the newest turns that stay under 3,500 "segments",
 * AgentBench's own size measure (agentbenchSegments), and the first message then
 * ends with "\n\n[NOTICE] {n} messages are omitted.".
 *
 * Source note: the notice text, the 3,500 threshold and the segment count are those of
 * AgentBench's src/server/task.py at 41e6807 (the same file as at 9b7a46c). The stored
 * revision 504ccbd, which has the threshold's `break` commented out (no truncation, so
 * no notice), is a pull request merged onto 41e6807, not 41e6807 itself (the README's
 * "Revisions of that cut"); this port truncates, as 41e6807 does.
 */
import type { ChatMessage } from '../smartplay.ts';

/** AgentBench's threshold_segments. */
export const AGENTBENCH_SEGMENT_LIMIT = 3500;

/** AgentBench's agents run at temperature 0 (configs/agents/openai-chat.yaml). */
export const AGENTBENCH_DEFAULTS = { temperature: 0, segmentLimit: AGENTBENCH_SEGMENT_LIMIT } as const;

const LETTER = /\p{L}/u;

/**
 * AgentBench's Session._calc_segments: letters are grouped into runs of at most 7
 * (each run, complete or cut off, is one segment); every other character except
 * space and newline is one segment on its own. "Letter" is Python's isalpha
 * (Unicode categories L*), matched here with \p{L}.
 */
export function agentbenchSegments(text: string): number {
  // By character codes, ASCII without a pattern test (the count runs over the whole conversation before every request).
  let segments = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    let letter: boolean;
    if (c < 128) {
      const lower = c | 32;
      letter = lower >= 97 && lower <= 122;
    } else {
      c = text.codePointAt(i)!;
      if (c > 0xffff) i++;
      letter = LETTER.test(String.fromCodePoint(c));
    }
    if (letter) {
      run++;
      if (run === 7) {
        segments++;
        run = 0;
      }
    } else {
      if (run > 0) {
        segments++;
        run = 0;
      }
      if (c !== 32 && c !== 10) segments++;
    }
  }
  return run > 0 ? segments + 1 : segments;
}

/** A turn of a task's fixed opening; AgentBench's own role name "agent" is accepted for "assistant". */
export interface OpeningTurn {
  role: 'user' | 'assistant' | 'agent';
  content: string;
}

export interface AgentBenchPromptInput {
  /** The task's first user message (the environment's manual/instruction); unused when `opening` is given. */
  instruction: string;
  /** From the reset observation to the current one. */
  observations: readonly string[];
  /** The agent's raw replies; actions[i] led to observations[i + 1]. */
  actions: readonly string[];
  /**
   * The agent's fixed reply to the instruction when the task states its problem in a
   * separate user turn (DB: instruction, agent "Ok.", then the question = the reset observation).
   */
  ack?: string;
  /**
   * The task's whole fixed opening, when it is more than the instruction (OS: the instruction
   * with the one-shot question, the one-shot turns, ...). Starts with a user turn.
   */
  opening?: readonly OpeningTurn[];
  /** Defaults to AGENTBENCH_SEGMENT_LIMIT. */
  segmentLimit?: number;
  /**
   * A marker the task cuts answered observations at (ALFWorld: "AVAILABLE ACTIONS"; task.py keeps
   * what comes before it in the user turn the model has just answered): every observation turn but
   * the newest loses the marker and what follows.
   */
  olderTurnsCut?: string;
}

/**
 * The whole task conversation, before truncation: the opening (`opening`, or the instruction
 * followed by `ack` when given), then the reset observation as a user turn, then the agent's
 * replies and the observations alternating. When the opening ends with a user turn, a
 * non-empty reset observation is appended to it after a blank line instead (our choice: an
 * environment whose manual is the whole first message has an empty reset observation).
 */
export function agentbenchConversation(input: AgentBenchPromptInput): ChatMessage[] {
  const { observations, actions } = input;
  const opening: readonly OpeningTurn[] =
    input.opening ?? (input.ack === undefined ? [{ role: 'user', content: input.instruction }] : [{ role: 'user', content: input.instruction }, { role: 'assistant', content: input.ack }]);
  const messages: ChatMessage[] = opening.map((t) => ({ role: t.role === 'user' ? 'user' : 'assistant', content: t.content }));
  const first = observations[0] ?? '';
  /** Where each observation went (the cut below needs them). */
  const at: number[] = [];
  if (first !== '') {
    const last = messages[messages.length - 1];
    if (last === undefined || last.role !== 'user') messages.push({ role: 'user', content: first });
    else last.content = `${last.content}\n\n${first}`;
    at.push(messages.length - 1);
  }
  for (let i = 1; i < observations.length; i++) {
    messages.push({ role: 'assistant', content: actions[i - 1] });
    messages.push({ role: 'user', content: observations[i] });
    at.push(messages.length - 1);
  }
  const cut = input.olderTurnsCut;
  if (cut !== undefined) for (const i of at.slice(0, -1)) messages[i].content = messages[i].content.split(cut)[0];
  return messages;
}

export interface AgentBenchPrompt {
  messages: ChatMessage[];
  /** Messages left out (0 when nothing was cut). */
  omitted: number;
}

/**
 * AgentBench's filter_messages: walking back from the newest message, keep messages
 * while the running segment count (starting with the first message's) stays under the
 * limit; if the oldest kept one is a user turn, drop it too so the kept turns start
 * with an agent reply; then put the first message (with the notice when anything was
 * left out) in front. Quirk kept: DB's "Ok." and question can be cut like any turn.
 */
export function truncateAgentBench(conversation: readonly ChatMessage[], segmentLimit = AGENTBENCH_SEGMENT_LIMIT): AgentBenchPrompt {
  if (conversation.length === 0) return { messages: [], omitted: 0 };
  let segments = agentbenchSegments(conversation[0].content);
  const kept: ChatMessage[] = [];
  for (let i = conversation.length - 1; i >= 1; i--) {
    segments += agentbenchSegments(conversation[i].content);
    if (segments >= segmentLimit) break;
    kept.push(conversation[i]);
  }
  if (kept.length > 0 && kept[kept.length - 1].role === 'user') kept.pop();
  const omitted = conversation.length - kept.length - 1;
  let first = conversation[0].content;
  if (omitted > 0) first += `\n\n[NOTICE] ${omitted} messages are omitted.`;
  kept.push({ role: conversation[0].role, content: first });
  kept.reverse();
  return { messages: kept, omitted };
}

/** The request for the agent's next reply. */
export function agentbenchPrompt(input: AgentBenchPromptInput): AgentBenchPrompt {
  return truncateAgentBench(agentbenchConversation(input), input.segmentLimit ?? AGENTBENCH_SEGMENT_LIMIT);
}
