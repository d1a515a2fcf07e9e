/**
 * MESSENGER's names and numbers (README.md, Upstream, "The game"; messenger-emma config.py):
 * the twelve entities with their ids 2–13, SmartPlay's five action names, and
 * the shape of an episode's state. Positions are in VGDL pixels: a cell is 2×2
 * pixels (block_size=2), so a sprite at pixel (x, y) is seen in cell
 * (row ⌊y/2⌋, col ⌊x/2⌋); the avatar is always on even pixels.
 */

/** Entity names in id order: airplane = 2 … sword = 13 (0 background, 1 dirt, 14 wall, 15/16 the avatar). */
export const ENTITY_NAMES = ['airplane', 'mage', 'dog', 'bird', 'fish', 'scientist', 'thief', 'ship', 'ball', 'robot', 'queen', 'sword'] as const;
export type EntityName = (typeof ENTITY_NAMES)[number];

/** Entity id by name. */
export const ENTITY_IDS: Readonly<Record<EntityName, number>> = Object.fromEntries(ENTITY_NAMES.map((n, i) => [n, i + 2])) as Record<EntityName, number>;

export function entityId(name: string): number {
  const i = (ENTITY_NAMES as readonly string[]).indexOf(name);
  if (i === -1) throw new Error(`Unknown MESSENGER entity "${name}".`);
  return i + 2;
}

/** SmartPlay's action names; the index is MESSENGER's action id (0 up, 1 down, 2 left, 3 right, 4 stay). */
export const MESSENGER_ACTIONS = ['Move North', 'Move South', 'Move West', 'Move East', 'Do Nothing'] as const;
/** Pixel offset of each action (the avatar moves one cell = 2 pixels). */
export const ACTION_DX = [0, 0, -2, 2, 0] as const;
export const ACTION_DY = [-2, 2, 0, 0, 0] as const;

export const GRID = 10;
/** Largest pixel coordinate a 2×2 sprite can have and stay on the 20×20-pixel screen. */
export const MAX_PIXEL = 2 * GRID - 2;

export type Movement = 'chaser' | 'fleeing' | 'immovable';
/** The VGDL sprite keys of the non-player characters, in the order VGDL updates them. */
export type Role = 'enemy' | 'message' | 'goal' | 'decoy_message' | 'decoy_goal';
/** A manual sentence's role (decoys are described as enemies). */
export type TextRole = 'enemy' | 'message' | 'goal';
export type TextType = Movement | 'unknown';

export interface Npc {
  role: Role;
  /** The entity shown (a decoy shows the same entity as the real message or goal). */
  entity: EntityName;
  movement: Movement;
  /** Top-left pixel. */
  x: number;
  y: number;
}

/** What a step did, for the visual view and the step's info. */
export type MessengerEvent =
  | { kind: 'killed'; by: Role; entity: EntityName }
  | { kind: 'picked-up'; entity: EntityName }
  | { kind: 'delivered'; entity: EntityName }
  /** Stage 1 only: stepping on the message while already holding it (reward −1). */
  | { kind: 'message-again'; entity: EntityName };

export interface MessengerState {
  level: 1 | 2 | 3;
  /** Entity names of the enemy, message and goal (games.json triple). */
  game: readonly [EntityName, EntityName, EntityName];
  /** Index into the level's variants (stages 2–3) and start maps (all stages). */
  variant: number;
  layout: number;
  /** Living non-player characters, in VGDL update order (enemy, message, goal, decoy message, decoy goal). */
  npcs: readonly Npc[];
  /** Avatar's top-left pixel. */
  ax: number;
  ay: number;
  hasMessage: boolean;
  /** False once the avatar sprite was killed (stages 2–3; upstream then renders "Environment Error."). */
  alive: boolean;
  done: boolean;
  /** The last step's reward (SmartPlay's score). */
  reward: number;
  events: readonly MessengerEvent[];
  t: number;
  /** The manual's entity sentences, in the order shown. */
  sentences: readonly string[];
  rng: number;
}
