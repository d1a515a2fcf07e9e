/**
 * Crafter's manual and action list as SmartPlay gives them (README.md, Upstream): the context
 * text SmartPlay stores in assets/crafter_ctxt.pkl (data/manual.json holds it unpickled) with the
 * five replacements crafter_env.py's __init__ makes. Unlike the other SmartPlay games the manual
 * is this text alone: SmartPlay appends no "List of all actions" (the text lists them itself).
 */
import stored from './data/manual.json';

/** SmartPlay's action_list, in crafter's action order (the index is crafter's action id). */
export const CRAFTER_ACTIONS = [
  'Noop', 'Move West', 'Move East', 'Move North', 'Move South', 'Do',
  'Sleep', 'Place Stone', 'Place Table', 'Place Furnace', 'Place Plant',
  'Make Wood Pickaxe', 'Make Stone Pickaxe', 'Make Iron Pickaxe', 'Make Wood Sword',
  'Make Stone Sword', 'Make Iron Sword',
] as const;

/** crafter_env.py's replacements, in its order (str.replace: every occurrence). */
const REPLACEMENTS: readonly (readonly [string, string])[] = [
  ['DO NOT answer in LaTeX.', ''],
  ['Move Up: Flat ground above the agent.', 'Move North: Flat ground north of the agent.'],
  ['Move Down: Flat ground below the agent.', 'Move South: Flat ground south of the agent.'],
  ['Move Left: Flat ground left to the agent.', 'Move West: Flat ground west of the agent.'],
  ['Move Right: Flat ground right to the agent.', 'Move East: Flat ground east of the agent.'],
];

export const CRAFTER_MANUAL: string = REPLACEMENTS.reduce((text, [from, to]) => text.split(from).join(to), (stored as { text: string }).text);
