/**
 * SmartPlay's text observation for Crafter (README.md, Upstream, "The text"; SmartPlay
 * 9dec5f2 src/smartplay/crafter/crafter_env.py describe_frame), read from the engine's view:
 *
 *   [You took action {crafter's name}.][status]
 *
 *   You see:
 *   - {kind} {d} steps to your {direction}     (the nearest cell of each kind, ascending id)
 *
 *   You face {kind} at your front.
 *
 *   Your status: … Your inventory: …
 *
 * The window is upstream's semantic slice: x from px − 4 to px + 4 and y from py − 3 to py + 3,
 * cut at the map's far edges. Near the near edges (x ≤ 3 or y ≤ 2) Python's slice with a negative
 * start is empty and the lookup of the facing cell raises, so the whole text is the error line;
 * the same happens when the facing cell lies beyond a cut far edge.
 */
import { ACTIONS, ITEMS, MATERIALS, type CrafterView, type Item } from './engine/types.ts';

export const OUT_OF_MAP = 'Error, you are out of the map.';
export const SLEEPING_LINE = 'You are sleeping, and will not be able take actions until energy is full.\n\n';
export const DIED_LINE = 'You died.\n\n';

/** Upstream's semantic ids: 0 nothing, 1–12 the materials, then the object kinds (player 13). */
const OBJECT_KINDS = ['player', 'cow', 'zombie', 'skeleton', 'arrow', 'plant'] as const;
const NAMES: readonly string[] = ['None', ...MATERIALS, ...OBJECT_KINDS];
const MATERIAL_ID = new Map<string, number>(MATERIALS.map((m, i) => [m, i + 1]));
const OBJECT_ID = new Map<string, number>(OBJECT_KINDS.map((k, i) => [k, MATERIALS.length + 1 + i]));
const PLAYER_ID = OBJECT_ID.get('player')!;

/** Half-widths of the window: upstream's view (9, 9) sliced as [x − 4, x + 5) × [y − 3, y + 4). */
const HALF_X = 4;
const HALF_Y = 3;

const VITALS: readonly Item[] = ['health', 'food', 'drink', 'energy'];
const VITAL_MAX = 9;
const HELD: readonly Item[] = ITEMS.filter((i) => !VITALS.includes(i));

/** crafter's internal action name as describe_act prints it (move_left → move_west, …). */
export const ACTION_LINE_NAMES: readonly string[] = ACTIONS.map((a) =>
  a.replace('do_', 'interact_').replace('move_up', 'move_north').replace('move_down', 'move_south').replace('move_left', 'move_west').replace('move_right', 'move_east'),
);

/** "north", "south-east", … for an offset (dx east, dy south); "" for none. */
export function directionWords(dx: number, dy: number): string {
  const ns = dy < 0 ? 'north' : dy > 0 ? 'south' : '';
  const we = dx < 0 ? 'west' : dx > 0 ? 'east' : '';
  return ns && we ? `${ns}-${we}` : ns || we;
}

/** The semantic id of a cell: the object on it, else its material (0 when none). */
function cellId(view: CrafterView, x: number, y: number): number {
  const obj = view.objectAt(x, y);
  if (obj) return OBJECT_ID.get(obj.kind)!;
  const m = view.material(x, y);
  return m === null ? 0 : MATERIAL_ID.get(m)!;
}

// Per-id scratch for describeEnv: nearest distance, and its offset.
const NEAR_D = new Int32Array(NAMES.length);
const NEAR_X = new Int32Array(NAMES.length);
const NEAR_Y = new Int32Array(NAMES.length);

/** "You see: … You face X at your front.", or null where upstream's describe_env raises. */
export function describeEnv(view: CrafterView, player: CrafterView['player'] = view.player): string | null {
  const [px, py] = player.pos;
  const [w, h] = view.area;
  const x0 = px - HALF_X;
  const y0 = py - HALF_Y;
  if (x0 < 0 || y0 < 0) return null;
  const x1 = Math.min(px + HALF_X, w - 1);
  const y1 = Math.min(py + HALF_Y, h - 1);
  const [fx, fy] = player.facing;
  const tx = px + fx;
  const ty = py + fy;
  if (tx > x1 || ty > y1) return null;
  NEAR_D.fill(-1);
  // Row-major over (x, y) as numpy's argmin: the first cell at the least distance wins.
  for (let x = x0; x <= x1; x++) {
    for (let y = y0; y <= y1; y++) {
      const id = cellId(view, x, y);
      if (id === PLAYER_ID) continue;
      const d = Math.abs(x - px) + Math.abs(y - py);
      if (NEAR_D[id] === -1 || d < NEAR_D[id]) {
        NEAR_D[id] = d;
        NEAR_X[id] = x - px;
        NEAR_Y[id] = y - py;
      }
    }
  }
  let lines = '';
  for (let id = 0; id < NAMES.length; id++) {
    if (NEAR_D[id] === -1) continue;
    lines += `\n- ${NAMES[id]} ${NEAR_D[id]} steps to your ${directionWords(NEAR_X[id], NEAR_Y[id])}`;
  }
  const seen = lines === '' ? 'You see nothing away from you.' : `You see:${lines}`;
  return `${seen}\n\nYou face ${NAMES[cellId(view, tx, ty)]} at your front.`;
}

/** describe_inventory: the four vitals out of 9, then what is held (non-zero, upstream's item order). */
export function describeInventory(inventory: Readonly<Record<Item, number>>): string {
  let status = 'Your status:';
  for (const v of VITALS) status += `\n- ${v}: ${inventory[v]}/${VITAL_MAX}`;
  let held = '';
  for (const i of HELD) if (inventory[i] !== 0) held += `\n- ${i}: ${inventory[i]}`;
  return `${status}\n\n${held === '' ? 'You have nothing in your inventory.' : `Your inventory:${held}`}`;
}

/**
 * The observation after the agent's action `action` (an index into ACTIONS), or the reset's
 * (action null: no action line). The action line and the sleeping/died line are glued with no
 * separator, as upstream.
 */
export function describeFrame(view: CrafterView, action: number | null): string {
  const player = view.player; // the engine builds it on each read
  const env = describeEnv(view, player);
  if (env === null) return OUT_OF_MAP;
  const act = action === null ? '' : `You took action ${ACTION_LINE_NAMES[action]}.`;
  const status = player.sleeping ? SLEEPING_LINE : player.inventory.health <= 0 ? DIED_LINE : '';
  return `${act}${status}\n\n${env}\n\n${describeInventory(player.inventory)}`.trim();
}
