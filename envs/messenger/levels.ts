/**
 * The three SmartPlay levels on messenger-emma's test split (README.md, Upstream):
 * the 32 test games, stage 2's 27 "new dynamics" variants (every movement
 * combination) over 24 start maps, and stage 3's 18 variants over 720 maps.
 * A reset draws, from the episode seed, the game, then the variant and map
 * (stages 2–3) or the entity cells and whether the avatar starts holding the
 * message (stage 1), then the manual's sentences.
 */
import type { Rng } from '../core/rng.ts';
import type { TaskInfo } from '../core/types.ts';
import games from './data/games.json';
import levels from './data/levels.json';
import { ENTITY_NAMES, type EntityName, type MessengerState, type Movement, type Npc, type Role } from './entities.ts';
import { stageOneSentences, stageThreeSentences, stageTwoSentences } from './manual.ts';

export interface MessengerTask extends TaskInfo {
  level: 1 | 2 | 3;
  /** Part of SmartPlay's benchmark v0 (benchmark_games_v0: MessengerL1 and L2). */
  benchmarkV0: boolean;
  description: string;
}

export const MESSENGER_TASKS: readonly MessengerTask[] = [
  {
    id: 'messenger-l1',
    name: 'MessengerL1-v0',
    level: 1,
    benchmarkV0: true,
    difficulty: 'level 1',
    description: 'Stage 1: nothing moves; the message, goal and an enemy sit two cells from you. 4 steps.',
  },
  {
    id: 'messenger-l2',
    name: 'MessengerL2-v0',
    level: 2,
    benchmarkV0: true,
    difficulty: 'level 2',
    description: 'Stage 2: entities chase you, flee from you or stay put; bring the message to the goal. 64 steps.',
  },
  {
    id: 'messenger-l3',
    name: 'MessengerL3-v0',
    level: 3,
    benchmarkV0: false,
    difficulty: 'level 3',
    description: 'Stage 3: as stage 2, plus a decoy message and a decoy goal that look like the real ones. 128 steps.',
  },
];

/** SmartPlay's step limits per level (lvl_to_steps). */
export const STEP_LIMITS = { 1: 4, 2: 64, 3: 128 } as const;

export const TEST_GAMES: readonly (readonly [EntityName, EntityName, EntityName])[] = games.test.map((g) => {
  for (const name of g) if (!(ENTITY_NAMES as readonly string[]).includes(name)) throw new Error(`games.json: unknown entity ${name}`);
  return g as unknown as [EntityName, EntityName, EntityName];
});

interface StageData {
  letters: string;
  variants: { file: string; types: string[] }[];
  maps: number[][][];
}
export const STAGE_TWO = levels.stage2 as StageData;
export const STAGE_THREE = levels.stage3 as StageData;

/** Stage 1's candidate cells [row, col] and the avatar's start cell. */
export const STAGE_ONE_CELLS: readonly (readonly [number, number])[] = [
  [3, 5],
  [5, 3],
  [5, 7],
  [7, 5],
];
export const STAGE_ONE_START = [5, 5] as const;
/** Stage 1: chance that the avatar starts holding the message. */
export const MESSAGE_PROBABILITY = 0.2;

const NPC_ROLES: readonly Role[] = ['enemy', 'message', 'goal', 'decoy_message', 'decoy_goal'];

function npcsFrom(game: readonly EntityName[], types: readonly Movement[], cells: readonly (readonly number[])[]): Npc[] {
  return types.map((movement, i) => ({
    role: NPC_ROLES[i],
    // Decoys show the entity of the real message (3) and goal (4).
    entity: game[i < 3 ? i : i - 2],
    movement,
    x: cells[i][1] * 2,
    y: cells[i][0] * 2,
  }));
}

/** A fresh episode of `level` from the generator (the generator's state moves on). */
export function newEpisode(level: 1 | 2 | 3, rng: Rng): MessengerState {
  const game = TEST_GAMES[rng.below(TEST_GAMES.length)];
  let variant = 0;
  let layout: number;
  let npcs: Npc[];
  let avatar: readonly number[];
  let hasMessage = false;
  let sentences: string[];
  if (level === 1) {
    const order = rng.shuffle([0, 1, 2, 3]);
    npcs = npcsFrom(game, ['immovable', 'immovable', 'immovable'], [STAGE_ONE_CELLS[order[0]], STAGE_ONE_CELLS[order[1]], STAGE_ONE_CELLS[order[2]]]);
    hasMessage = rng.uniform() < MESSAGE_PROBABILITY;
    sentences = stageOneSentences(rng, game);
    // `layout` numbers the cell order: cells of enemy, message, goal as base-4 digits.
    layout = order[0] * 16 + order[1] * 4 + order[2];
    avatar = STAGE_ONE_START;
  } else {
    const data = level === 2 ? STAGE_TWO : STAGE_THREE;
    variant = rng.below(data.variants.length);
    layout = rng.below(data.maps.length);
    const types = data.variants[variant].types as Movement[];
    const map = data.maps[layout];
    avatar = map[0];
    npcs = npcsFrom(game, types, map.slice(1));
    sentences = level === 2 ? stageTwoSentences(rng, game, types) : stageThreeSentences(rng, game, types);
  }
  return {
    level,
    game,
    variant,
    layout,
    npcs,
    ax: avatar[1] * 2,
    ay: avatar[0] * 2,
    hasMessage,
    alive: true,
    done: false,
    reward: 0,
    events: [],
    t: 0,
    sentences,
    rng: rng.state,
  };
}
