/**
 * The commands panel's model (no DOM): the admissible commands grouped by verb in a fixed order,
 * a search that keeps the commands containing every typed word, and the text a click sends under
 * the task's protocol (AgentBench reads "ACTION: <command>" from the reply; AgentBoard takes the
 * command itself).
 */
import type { Protocol } from '../games.ts';

export interface CommandGroup {
  /** The verb as the commands start with it ("go to", "take", …); '' for the rest. */
  verb: string;
  /** The group's heading. */
  label: string;
  commands: string[];
}

/** Verbs of the game grammar (original and patched wordings), in the order a person mostly needs them. */
const VERBS: readonly [verb: string, label: string][] = [
  ['go to', 'Go to'],
  ['take', 'Take'],
  ['put', 'Put'],
  ['move', 'Move'],
  ['open', 'Open'],
  ['close', 'Close'],
  ['use', 'Use'],
  ['heat', 'Heat'],
  ['cool', 'Cool'],
  ['clean', 'Clean'],
  ['slice', 'Slice'],
  ['examine', 'Examine'],
];

/** The verb a command starts with, or '' (inventory, look, help, check valid actions). */
export function verbOf(command: string): string {
  for (const [verb] of VERBS) if (command === verb || command.startsWith(verb + ' ')) return verb;
  return '';
}

/** What a button shows: the command without its group's verb ("desk 2" under "Go to"). */
export function shortLabel(command: string): string {
  const verb = verbOf(command);
  return verb ? command.slice(verb.length + 1) : command;
}

/** The commands grouped by verb, groups in VERBS order then the rest; each group keeps the given order. */
export function groupCommands(commands: readonly string[]): CommandGroup[] {
  const groups: CommandGroup[] = [...VERBS.map(([verb, label]) => ({ verb, label, commands: [] as string[] })), { verb: '', label: 'Other', commands: [] }];
  for (const c of commands) groups.find((g) => g.verb === verbOf(c))!.commands.push(c);
  return groups.filter((g) => g.commands.length > 0);
}

/** The commands containing every word of the query (case-insensitive), in the given order; all of them for an empty query. */
export function filterCommands(commands: readonly string[], query: string): string[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return words.length === 0 ? [...commands] : commands.filter((c) => words.every((w) => c.toLowerCase().includes(w)));
}

/** The action text a chosen command is sent as. */
export function actionText(command: string, protocol: Protocol): string {
  return protocol === 'agentbench' ? `ACTION: ${command}` : command;
}
