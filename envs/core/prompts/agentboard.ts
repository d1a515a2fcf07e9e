/**
 * AgentBoard's VanillaAgent protocol (suites/agentboard/README.md, "Upstream";
 * AgentBoard's agentboard/agents/vanilla_agent.py): one system message (the prompt
 * file's system_msg) and one user message made of the instruction, the examples, the
 * goal, the help line(s) and the interaction so far as "Observation: …" / "Action: …"
 * lines, ending in "\nAction: ".
 * The history keeps the newest `memorySize` lines and then drops the oldest line
 * until the request fits the model's context minus its reply budget.
 */
import type { ChatMessage } from '../smartplay.ts';
import { estimateMessageTokens, estimateTokens } from './tokens.ts';

/** The fields of an AgentBoard VanillaAgent prompt file (e.g. babyai_vanilla_prompt.json). */
export interface AgentBoardPromptData {
  system_msg: string;
  instruction: string;
  examples: readonly string[] | string;
}

export interface AgentBoardParams extends AgentBoardPromptData {
  /**
   * The whole text before the history, when the environment already gives it (its manual is
   * the VanillaAgent prompt head); instruction, examples, goal and help lines are then unused.
   */
  preamble?: string;
  /** The goal line is shown when set (AgentBoard's evaluation runs with need_goal: true). */
  goal?: string | null;
  /** The help command for not-understood actions; AgentBoard's configs use "check valid actions" (null: no line). */
  checkActions?: string | null;
  /** Adds the "inventory" help line (BabyAI yes, PDDL no). */
  checkInventory?: boolean;
  /** History lines kept before fitting (VanillaAgent memory_size, default 100). */
  memorySize?: number;
  /** The model's context length in tokens (AgentBoard default 4096). */
  contextLength?: number;
  /** Tokens reserved for the reply (AgentBoard's API models: 100). */
  maxTokens?: number;
  /** How request size is counted; defaults to estimateMessageTokens (chars/4, see tokens.ts). */
  countTokens?: (messages: readonly ChatMessage[]) => number;
  /**
   * The action as the task loop hands it to `agent.update`, from the parsed reply: some tasks
   * rewrite the action before both the environment and the memory see it (ALFWorld's
   * `Evalalfworld.parseAction`: "put X in Y" → "put X in/on Y", a final "." dropped). Default: as is.
   */
  historyAction?: (action: string) => string;
}

export const AGENTBOARD_DEFAULTS = {
  checkActions: 'check valid actions',
  memorySize: 100,
  contextLength: 4096,
  maxTokens: 100,
  temperature: 0,
  /** API models stop at the first newline, so the reply is one line. */
  stop: ['\n'],
} as const;

const HELP = 'You should use the following commands for help when your action cannot be understood: ';

/** The part of the user message before the history (instruction, examples, goal, help lines). */
export function agentboardPreamble(params: AgentBoardParams): string {
  if (params.preamble !== undefined) return params.preamble;
  let text = params.instruction;
  const examples = typeof params.examples === 'string' ? [params.examples] : params.examples;
  if (examples.length > 0) text += `\nHere are examples:\n${examples.map((e) => `${e}\n`).join('')}`;
  if (params.goal != null) text += `You should perform actions to accomplish the goal: ${params.goal}\n`;
  const check = params.checkActions === undefined ? AGENTBOARD_DEFAULTS.checkActions : params.checkActions;
  if (check !== null) text += `${HELP}${check}\n`;
  if (params.checkInventory) text += `${HELP}inventory\n`;
  return text;
}

/** The memory as AgentBoard keeps it: the first observation, then Action/Observation pairs. */
export function agentboardMemory(observations: readonly string[], actions: readonly string[]): string[] {
  const lines: string[] = [];
  observations.forEach((observation, i) => {
    if (i > 0) lines.push(`Action: ${actions[i - 1]}`);
    lines.push(`Observation: ${observation}`);
  });
  return lines;
}

export interface AgentBoardPrompt {
  messages: ChatMessage[];
  /** History lines left out (memory size plus fitting). */
  dropped: number;
}

/**
 * The [system, user] messages for the next action. `observations` runs from the
 * reset observation to the current one; `actions[i]` led to observations[i + 1].
 * If even the empty history does not fit, the prompt goes out without history
 * (upstream would loop forever there).
 */
export function agentboardPrompt(params: AgentBoardParams, observations: readonly string[], actions: readonly string[]): AgentBoardPrompt {
  const preamble = agentboardPreamble(params);
  const memory = agentboardMemory(observations, params.historyAction ? actions.map(params.historyAction) : actions);
  const memorySize = params.memorySize ?? AGENTBOARD_DEFAULTS.memorySize;
  const budget = (params.contextLength ?? AGENTBOARD_DEFAULTS.contextLength) - (params.maxTokens ?? AGENTBOARD_DEFAULTS.maxTokens);
  const count = params.countTokens ?? estimateMessageTokens;
  let from = Math.max(0, memory.length - memorySize);
  const build = (): ChatMessage[] => [
    { role: 'system', content: params.system_msg },
    { role: 'user', content: `${preamble}${memory.slice(from).join('\n')}\nAction: ` },
  ];
  if (params.countTokens === undefined) {
    // The default estimate depends only on lengths: find the first history line that fits
    // without building a prompt per dropped line (quadratic when replies are long).
    const fixed = 3 + estimateTokens('system') + estimateTokens(params.system_msg) + estimateTokens('user');
    const tail = '\nAction: '.length;
    let length = preamble.length + tail;
    for (let i = from; i < memory.length; i++) length += memory[i].length + (i > from ? 1 : 0);
    while (from < memory.length && fixed + Math.ceil(length / 4) > budget) {
      length -= memory[from].length + (from < memory.length - 1 ? 1 : 0);
      from++;
    }
    return { messages: build(), dropped: from };
  }
  let messages = build();
  while (from < memory.length && count(messages) > budget) {
    from++;
    messages = build();
  }
  return { messages, dropped: from };
}

/**
 * The action in an AgentBoard reply: through parseOpenModelAction (VanillaAgent's use_parser,
 * which AgentBoard's evaluation leaves at its default True for every model: its eval_main.py
 * does not pass the LLM config's use_parser: False to the agent), or, with `openModel` false,
 * the reply's first line (API models answer with stop "\n").
 */
export function parseAgentBoardReply(reply: string, openModel = false): string {
  return openModel ? parseOpenModelAction(reply) : reply.split('\n')[0];
}

/**
 * AgentBoard's parser for open models (VanillaAgent.action_parser_for_special_llms),
 * rules in order. When the reply mentions "action" (any case), scan its lines:
 * - a line containing "next action" and ":" makes the next non-empty line the candidate (scan goes on);
 * - a line whose text before its first ":" ends with "with action input" is taken whole (stop);
 * - a line mentioning "action" with a ":" gives the text after its first ":" if that is non-empty (stop);
 * - a line mentioning "action" and "is to" gives the text after "is to" (up to a second "is to"), if non-empty (stop).
 * A blank result falls back to the reply's first line. The result is trimmed, stripped of
 * leading/trailing ' and / characters, and cut at its first newline.
 */
export function parseOpenModelAction(reply: string): string {
  let action = reply;
  if (reply.toLowerCase().includes('action')) {
    const lines = reply.split('\n');
    // Upstream looks a "next action" line up by value, so a repeated line resolves to its first
    // occurrence; both lookups are tables here (a search per line was quadratic on long replies).
    const firstAt = new Map<string, number>();
    lines.forEach((l, i) => {
      if (!firstAt.has(l)) firstAt.set(l, i);
    });
    const nextNonEmpty: (string | undefined)[] = new Array(lines.length + 1);
    for (let i = lines.length - 1; i >= 0; i--) nextNonEmpty[i] = lines[i] !== '' ? lines[i] : nextNonEmpty[i + 1];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const mentions = line.toLowerCase().includes('action');
      if (line.includes('next action') && line.includes(':')) {
        const next = nextNonEmpty[firstAt.get(line)! + 1];
        if (next !== undefined) action = next;
      }
      if (line.split(':')[0].toLowerCase().endsWith('with action input')) {
        action = line;
        break;
      }
      if (mentions && line.includes(':')) {
        const after = line.slice(line.indexOf(':') + 1);
        if (after !== '') {
          action = after;
          break;
        }
      }
      if (mentions && line.includes('is to')) {
        const after = line.split('is to')[1];
        if (after !== '') {
          action = after;
          break;
        }
      }
    }
  }
  if (action.trim() === '') action = reply.split('\n')[0];
  return stripChars(action.trim(), "'/").split('\n')[0];
}

/** Python's str.strip(chars). */
function stripChars(text: string, chars: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start])) start++;
  while (end > start && chars.includes(text[end - 1])) end--;
  return text.slice(start, end);
}
