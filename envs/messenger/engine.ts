/**
 * MESSENGER's rules (README.md, Upstream, "The game").
 *
 * Stage 1 (messenger-emma stage_one.py, no engine): nothing moves but the avatar;
 * after the move, the first of enemy, message, goal on the avatar's cell decides:
 * enemy −1; message +1 (−1 if already holding it); goal +1 with the message, −1
 * without; all three end the episode. Off-grid moves do nothing.
 *
 * Stages 2–3 (py-vgdl as messenger's VGDL files configure it): one tick =
 *   1. sprites update in definition order: enemy, message, goal, decoy message,
 *      decoy goal, then the avatar. A chaser picks uniformly among the directions
 *      whose 1-pixel move strictly shortens its Manhattan pixel distance to the
 *      avatar, a fleer among those that strictly lengthen it; if none qualify,
 *      among all four. NPCs move 1 pixel (speed 0.5 × block 2), the avatar 2.
 *   2. collision effects in the file's order, on 2×2-pixel rectangles that overlap
 *      (|dx| < 2 and |dy| < 2):
 *        root EOS        → step back (anything leaving the 20×20 screen returns)
 *        avatar enemy    → avatar killed, −1   (stage 3 also: decoy message, decoy goal)
 *        no_message goal → avatar killed, −1
 *        no_message message → +0.5, avatar now holds the message
 *        message avatar  → message removed
 *        goal with_message → +1, goal removed
 *   3. termination: no avatar → lost; no goal → won.
 * Quirk kept: VGDL adds an effect's score before checking whether the actor died
 * earlier in the same tick, and the "avatar" list is a snapshot, so an avatar
 * touching the enemy and a decoy at once scores −2 (stage 3 only).
 */
import type { Rng } from '../core/rng.ts';
import { ACTION_DX, ACTION_DY, MAX_PIXEL, type MessengerEvent, type MessengerState, type Npc } from './entities.ts';

/** Two 2×2 rectangles overlap (pygame's colliderect: touching edges do not count). */
export function collides(x1: number, y1: number, x2: number, y2: number): boolean {
  return Math.abs(x1 - x2) < 2 && Math.abs(y1 - y2) < 2;
}

const onScreen = (v: number): boolean => v >= 0 && v <= MAX_PIXEL;

/** The four base directions (VGDL's BASEDIRS order: up, left, down, right). */
export const DIRS: readonly (readonly [number, number])[] = [
  [0, -1],
  [-1, 0],
  [0, 1],
  [1, 0],
];

/**
 * Directions (indices into DIRS) a chaser (toward) or fleer (away) may take from
 * (x, y) with the avatar at (ax, ay): those strictly shortening / lengthening the
 * Manhattan pixel distance; all four when none does.
 */
export function moveOptions(x: number, y: number, ax: number, ay: number, fleeing: boolean, out: number[] = []): number[] {
  out.length = 0;
  const base = Math.abs(x - ax) + Math.abs(y - ay);
  for (let d = 0; d < 4; d++) {
    const dist = Math.abs(x + DIRS[d][0] - ax) + Math.abs(y + DIRS[d][1] - ay);
    if (fleeing ? dist > base : dist < base) out.push(d);
  }
  if (out.length === 0) out.push(0, 1, 2, 3);
  return out;
}

export interface TickResult {
  state: MessengerState;
  reward: number;
}

/** Stage 1: move the avatar one cell and look at the cell it lands on. */
export function stageOneStep(state: MessengerState, action: number): TickResult {
  const nx = state.ax + ACTION_DX[action];
  const ny = state.ay + ACTION_DY[action];
  const ax = onScreen(nx) ? nx : state.ax;
  const ay = onScreen(ny) ? ny : state.ay;
  let reward = 0;
  const events: MessengerEvent[] = [];
  // Order as upstream: enemy, then message, then goal (they never share a cell).
  for (const npc of state.npcs) {
    if (npc.x !== ax || npc.y !== ay) continue;
    if (npc.role === 'enemy') {
      reward = -1;
      events.push({ kind: 'killed', by: 'enemy', entity: npc.entity });
    } else if (npc.role === 'message') {
      reward = state.hasMessage ? -1 : 1;
      events.push(state.hasMessage ? { kind: 'message-again', entity: npc.entity } : { kind: 'picked-up', entity: npc.entity });
    } else {
      reward = state.hasMessage ? 1 : -1;
      events.push(state.hasMessage ? { kind: 'delivered', entity: npc.entity } : { kind: 'killed', by: 'goal', entity: npc.entity });
    }
    break;
  }
  // The avatar is never removed in stage 1 and keeps its sprite (so the text still renders).
  return { state: nextState(state, state.npcs, ax, ay, state.hasMessage, true, events.length > 0, reward, events, state.rng), reward };
}

const scratch: number[] = [];
/** VGDL's "avatar X > killSprite" effects, in file order. */
const KILLERS = ['enemy', 'decoy_message', 'decoy_goal'] as const;

/** Stages 2–3: one VGDL tick. `rng` is advanced for every moving NPC. */
export function vgdlTick(state: MessengerState, action: number, rng: Rng): TickResult {
  if (state.done) return { state: nextState(state, state.npcs, state.ax, state.ay, state.hasMessage, state.alive, true, 0, [], state.rng), reward: 0 };
  const { ax: oax, ay: oay } = state;
  const count = state.npcs.length;
  // 1. Sprite updates: NPCs (seeing the avatar where it stands now), then the avatar.
  const npcs: Npc[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const npc = state.npcs[i];
    if (npc.movement === 'immovable') {
      npcs[i] = npc;
      continue;
    }
    const options = moveOptions(npc.x, npc.y, oax, oay, npc.movement === 'fleeing', scratch);
    const d = DIRS[options[rng.below(options.length)]];
    const x = npc.x + d[0];
    const y = npc.y + d[1];
    // 2a. root EOS > stepBack: a sprite that left the screen returns to where it was.
    npcs[i] = onScreen(x) && onScreen(y) ? { role: npc.role, entity: npc.entity, movement: npc.movement, x, y } : npc;
  }
  let ax = oax + ACTION_DX[action];
  let ay = oay + ACTION_DY[action];
  if (!onScreen(ax) || !onScreen(ay)) {
    ax = oax;
    ay = oay;
  }

  // 2b. Collision effects, in the VGDL file's order.
  let reward = 0;
  let alive = true;
  let hasMessage = state.hasMessage;
  const events: MessengerEvent[] = [];
  for (const role of KILLERS) {
    for (const npc of npcs) {
      if (npc.role !== role || !collides(ax, ay, npc.x, npc.y)) continue;
      reward -= 1; // scored even when the avatar already died this tick (snapshot quirk)
      if (alive) {
        alive = false;
        events.push({ kind: 'killed', by: role, entity: npc.entity });
      }
    }
  }
  let goalIndex = -1;
  let messageIndex = -1;
  for (let i = 0; i < count; i++) {
    if (npcs[i].role === 'goal') goalIndex = i;
    else if (npcs[i].role === 'message') messageIndex = i;
  }
  if (alive && !hasMessage && goalIndex !== -1 && collides(ax, ay, npcs[goalIndex].x, npcs[goalIndex].y)) {
    reward -= 1;
    alive = false;
    events.push({ kind: 'killed', by: 'goal', entity: npcs[goalIndex].entity });
  }
  if (alive && !hasMessage && messageIndex !== -1 && collides(ax, ay, npcs[messageIndex].x, npcs[messageIndex].y)) {
    reward += 0.5;
    hasMessage = true;
    events.push({ kind: 'picked-up', entity: npcs[messageIndex].entity });
  }
  // message avatar > killSprite: the avatar list is the tick's snapshot, so a dead avatar still takes the message away.
  const removeMessage = messageIndex !== -1 && collides(ax, ay, npcs[messageIndex].x, npcs[messageIndex].y);
  const removeGoal = alive && hasMessage && goalIndex !== -1 && collides(ax, ay, npcs[goalIndex].x, npcs[goalIndex].y);
  if (removeGoal) {
    reward += 1;
    events.push({ kind: 'delivered', entity: npcs[goalIndex].entity });
  }
  const living = removeMessage || removeGoal ? npcs.filter((_, i) => !(removeMessage && i === messageIndex) && !(removeGoal && i === goalIndex)) : npcs;

  // 3. Termination: the avatar gone (lost) or the goal gone (won).
  const done = !alive || removeGoal;
  return { state: nextState(state, living, ax, ay, hasMessage, alive, done, reward, events, rng.state), reward };
}

/** The state after a tick, written out in full (V8 copies a spread of this shape slowly). */
function nextState(
  s: MessengerState,
  npcs: readonly Npc[],
  ax: number,
  ay: number,
  hasMessage: boolean,
  alive: boolean,
  done: boolean,
  reward: number,
  events: readonly MessengerEvent[],
  rng: number,
): MessengerState {
  return {
    level: s.level,
    game: s.game,
    variant: s.variant,
    layout: s.layout,
    npcs,
    ax,
    ay,
    hasMessage,
    alive,
    done,
    reward,
    events,
    t: s.t + 1,
    sentences: s.sentences,
    rng,
  };
}
