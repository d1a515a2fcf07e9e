/**
 * Crafter's keyboard play: arrows or WASD move, Space does ("Do": hit, collect, drink, eat),
 * and one letter for each other action (no digits: the play view numbers the action buttons).
 * Tab is never taken (it moves the focus). Each key sends
 * the action's exact SmartPlay name, or nothing when the list lacks it.
 */
import type { KeyHint } from '../core/ui.ts';

const KEYS: Readonly<Record<string, string>> = {
  ArrowLeft: 'Move West',
  ArrowRight: 'Move East',
  ArrowUp: 'Move North',
  ArrowDown: 'Move South',
  a: 'Move West',
  d: 'Move East',
  w: 'Move North',
  s: 'Move South',
  ' ': 'Do',
  z: 'Sleep',
  r: 'Place Stone',
  t: 'Place Table',
  f: 'Place Furnace',
  p: 'Place Plant',
  j: 'Make Wood Pickaxe',
  k: 'Make Stone Pickaxe',
  l: 'Make Iron Pickaxe',
  u: 'Make Wood Sword',
  i: 'Make Stone Sword',
  o: 'Make Iron Sword',
  n: 'Noop',
};

export function crafterKey(key: string, actions: readonly string[]): string | null {
  const k = key.length === 1 ? key.toLowerCase() : key;
  const action = Object.hasOwn(KEYS, k) ? KEYS[k] : undefined;
  return action !== undefined && actions.includes(action) ? action : null;
}

export const CRAFTER_KEY_HINTS: readonly KeyHint[] = [
  { keys: '← ↑ → ↓ or W A S D', does: 'move west / north / east / south (toward a wall: turn to face it)' },
  { keys: 'Space', does: 'do: hit, collect, drink or eat what you face' },
  { keys: 'Z', does: 'sleep' },
  { keys: 'R T F P', does: 'place stone / table / furnace / plant' },
  { keys: 'J K L', does: 'make wood / stone / iron pickaxe' },
  { keys: 'U I O', does: 'make wood / stone / iron sword' },
  { keys: 'N', does: 'noop (wait one step)' },
];
