/**
 * SmartPlay's observation text for MESSENGER (messenger_env.py describe_frame,
 * README.md, Upstream, "The wrapper"): the message line, then "You see:" with one line per entity
 * id present (ascending id), each for the nearest instance of that id: Manhattan
 * distance in cells and a compound direction, or "0 steps with you". Decoys use
 * the ids of the message and goal, so a decoy and the real one collapse into one
 * line (upstream quirk). Among equally near instances the first in row-major order
 * is reported (numpy argmin). A killed avatar cannot be rendered: "Environment Error.".
 */
import { ENTITY_IDS, ENTITY_NAMES, MESSENGER_ACTIONS, type MessengerState } from './entities.ts';

export const ENVIRONMENT_ERROR = 'Environment Error.';
const HAS = 'You (agent) already have the message.';
const HAS_NOT = "You (agent) don't have the message.";

/** "north", "south-east", … for a cell offset (dRow, dCol); "" when both are 0. */
export function directionWords(dRow: number, dCol: number): string {
  const ns = dRow < 0 ? 'north' : dRow > 0 ? 'south' : '';
  const we = dCol < 0 ? 'west' : dCol > 0 ? 'east' : '';
  return ns && we ? `${ns}-${we}` : ns || we;
}

/** One entity instance as the text sees it: id and cell. */
export interface SeenEntity {
  id: number;
  row: number;
  col: number;
}

// Per-id scratch for describeFrame (ids 0–16): nearest distance, and its cell.
const NEAR_D = new Int32Array(17);
const NEAR_R = new Int32Array(17);
const NEAR_C = new Int32Array(17);

/** The frame text for an avatar at (row, col) seeing these entity instances. */
export function describeFrame(hasMessage: boolean, row: number, col: number, entities: readonly SeenEntity[]): string {
  NEAR_D.fill(-1);
  // Nearest instance per id; ties go to the smaller row, then column (numpy argmin over the grid).
  for (const e of entities) {
    const d = Math.abs(e.row - row) + Math.abs(e.col - col);
    const cur = NEAR_D[e.id];
    if (cur === -1 || d < cur || (d === cur && (e.row < NEAR_R[e.id] || (e.row === NEAR_R[e.id] && e.col < NEAR_C[e.id])))) {
      NEAR_D[e.id] = d;
      NEAR_R[e.id] = e.row;
      NEAR_C[e.id] = e.col;
    }
  }
  let lines = '';
  for (let id = 2; id <= 13; id++) {
    const d = NEAR_D[id];
    if (d === -1) continue;
    const name = ENTITY_NAMES[id - 2];
    lines += d > 0 ? `\n- ${name} ${d} steps to your ${directionWords(NEAR_R[id] - row, NEAR_C[id] - col)}` : `\n- ${name} 0 steps with you`;
  }
  const head = hasMessage ? HAS : HAS_NOT;
  return lines === '' ? `${head}\n\nYou see nothing away from you.` : `${head}\n\nYou see:${lines}`;
}

/** What the model is told about a state: the frame, or "Environment Error." once the avatar is gone. */
export function observe(state: MessengerState): string {
  if (!state.alive) return ENVIRONMENT_ERROR;
  const seen: SeenEntity[] = [];
  for (const n of state.npcs) seen.push({ id: ENTITY_IDS[n.entity], row: n.y >> 1, col: n.x >> 1 });
  return describeFrame(state.hasMessage, state.ay >> 1, state.ax >> 1, seen);
}

/** A step's observation: "You took action {name}.\n\n{frame}", or "Environment Error." when the frame cannot be drawn. */
export function stepObservation(state: MessengerState, action: number): string {
  if (!state.alive) return ENVIRONMENT_ERROR;
  return TOOK[action] + observe(state);
}

const TOOK = MESSENGER_ACTIONS.map((a) => `You took action ${a}.\n\n`);
