/**
 * A Crafter episode as SmartPlay plays it (SmartPlay 9dec5f2: crafter_env.py `Crafter.reset/step`
 * over crafter env.py `Env`): the world seeded with `hash((seed, episode)) % (2**31 - 1)`, generated,
 * then one internal noop step, so a fresh game is at step 1. Each step updates the objects near the
 * player, rebalances creatures every 10th step, advances the render's night noise draws, and scores
 * upstream's reward. Same options and actions give the same trajectory (resume = replay).
 */
import { ACHIEVEMENTS, ACTIONS, MATERIALS, type Achievement, type Action, type CrafterObjectView, type CrafterView, type Item, type Material, type Pos } from './types';
import { balanceChunks } from './balance';
import { updateArrow, updateCow, updatePlant, updatePlayer, updateSkeleton, updateZombie } from './creatures';
import { crafterWorldSeed } from './pyhash';
import { ARROW, COW, PLANT, PLAYER, Player, SKELETON, World, ZOMBIE } from './world';
import { generateWorld } from './worldgen';

export interface CrafterOptions {
  /** The env seed (`Crafter(seed=...)`). */
  seed: number;
  /** 1-based episode of that env (the n-th reset); default 1. */
  episode?: number;
  /** Episode length in steps (upstream `length`); default 10000. */
  length?: number;
}

/** Upstream env.step's info (the fields a port needs; names as upstream's). */
export interface CrafterStepInfo {
  inventory: Record<Item, number>;
  achievements: Record<Achievement, number>;
  discount: number;
  player_pos: [number, number];
  reward: number;
  /** Also in upstream's info (SmartPlay's text reads them). */
  player_facing: [number, number];
  sleeping: boolean;
  dead: boolean;
  action: Action;
}

export interface CrafterStepResult {
  reward: number;
  done: boolean;
  /** Achievements unlocked for the first time this step, in upstream's order. */
  unlocked: Achievement[];
  info: CrafterStepInfo;
}

export interface CrafterGame {
  readonly view: CrafterView;
  readonly seed: number;
  readonly episode: number;
  readonly length: number;
  /** The RandomState seed of this episode's world. */
  readonly worldSeed: number;
  /** The result of the latest step; after creation, of SmartPlay's internal noop step. */
  readonly last: CrafterStepResult;
  /** Take upstream's action id (index in ACTIONS). */
  step(action: number): CrafterStepResult;
}

/** Upstream's local view is 9 × 9 cells; objects update within 2 · 9 steps of the player. */
const VIEW = 9;
const UPDATE_DIST = 2 * VIEW;
/** The render's night noise: one uniform per pixel of the 9 × 7-cell local view at 7 px a cell. */
const NIGHT_NOISE_DRAWS = 9 * 7 * 7 * 7;

const AREA: Pos = [64, 64];

export function createCrafter(opts: CrafterOptions): CrafterGame {
  return new CrafterEngine(opts);
}

/** A game after `actions` (resume at any step by replaying). */
export function replayCrafter(opts: CrafterOptions, actions: Iterable<number>): CrafterGame {
  const game = new CrafterEngine(opts);
  for (const a of actions) game.step(a);
  return game;
}

/** Upstream `_update_time` (https://www.desmos.com/calculator/grfbc6rs3h). */
export function daylightAt(step: number): number {
  const progress = ((step / 300) % 1) + 0.3;
  return 1 - Math.abs(Math.cos(Math.PI * progress)) ** 3;
}

/** The engine behind `CrafterGame`, with its world and player open to the conformance tests. */
export class CrafterEngine implements CrafterGame {
  readonly seed: number;
  readonly episode: number;
  readonly length: number;
  readonly worldSeed: number;
  readonly world: World;
  readonly player: Player;
  stepCount = 0;
  last!: CrafterStepResult;
  private lastHealth: number;
  private readonly unlockedSet = new Uint8Array(ACHIEVEMENTS.length);
  readonly view: CrafterView;

  constructor(opts: CrafterOptions) {
    if (!Number.isSafeInteger(opts.seed)) throw new RangeError(`crafter: the seed must be an integer, got ${opts.seed}`);
    this.seed = opts.seed;
    this.episode = opts.episode ?? 1;
    this.length = opts.length ?? 10000;
    if (!Number.isSafeInteger(this.episode) || this.episode < 1) throw new RangeError(`crafter: the episode must be an integer ≥ 1, got ${opts.episode}`);
    this.worldSeed = crafterWorldSeed(this.seed, this.episode);
    this.world = new World(AREA[0], AREA[1], this.worldSeed);
    this.world.daylight = daylightAt(0);
    this.player = new Player(AREA[0] >> 1, AREA[1] >> 1);
    this.lastHealth = this.player.health;
    this.world.add(this.player);
    generateWorld(this.world, this.player);
    this.view = new GameView(this);
    // SmartPlay's reset: one noop step after upstream's reset.
    this.step(0);
  }

  step(action: number): CrafterStepResult {
    if (!Number.isInteger(action) || action < 0 || action >= ACTIONS.length) {
      throw new RangeError(`crafter: action must be an integer in 0..${ACTIONS.length - 1}, got ${action}`);
    }
    const world = this.world, player = this.player;
    this.stepCount += 1;
    world.daylight = daylightAt(this.stepCount);
    player.action = action;
    // Upstream iterates a snapshot: objects created during the loop wait for the next step.
    const count = world.list.length;
    for (let i = 1; i < count; i++) {
      const obj = world.list[i];
      if (!obj) continue;
      if (Math.abs(obj.x - player.x) + Math.abs(obj.y - player.y) >= UPDATE_DIST) continue;
      switch (obj.type) {
        case PLAYER: updatePlayer(world, player); break;
        case COW: updateCow(world, obj); break;
        case ZOMBIE: updateZombie(world, obj, player); break;
        case SKELETON: updateSkeleton(world, obj, player); break;
        case ARROW: updateArrow(world, obj); break;
        case PLANT: updatePlant(world, obj); break;
      }
    }
    if (this.stepCount % 10 === 0) balanceChunks(world, player);
    // Upstream renders every step; at night its noise draws from the world's generator.
    if (world.daylight < 0.5) world.random.skipDoubles(NIGHT_NOISE_DRAWS);

    let reward = (player.health - this.lastHealth) / 10;
    this.lastHealth = player.health;
    const unlocked: Achievement[] = [];
    for (let i = 0; i < ACHIEVEMENTS.length; i++) {
      if (player.ach[i] > 0 && !this.unlockedSet[i]) {
        this.unlockedSet[i] = 1;
        unlocked.push(ACHIEVEMENTS[i]);
      }
    }
    if (unlocked.length) reward += 1.0;
    const dead = player.health <= 0;
    const done = dead || (this.length > 0 && this.stepCount >= this.length);
    this.last = {
      reward,
      done,
      unlocked,
      info: {
        inventory: inventoryRecord(player.inv),
        achievements: achievementRecord(player.ach),
        discount: 1 - (dead ? 1 : 0),
        player_pos: [player.x, player.y],
        reward,
        player_facing: [player.fx, player.fy],
        sleeping: player.sleeping,
        dead,
        action: ACTIONS[action],
      },
    };
    return this.last;
  }
}

// Object literals in upstream's key order (a fixed shape is much cheaper per step than keys added
// one by one); the rules test checks the keys against ITEMS and ACHIEVEMENTS.
export function inventoryRecord(inv: Int32Array): Record<Item, number> {
  return {
    health: inv[0], food: inv[1], drink: inv[2], energy: inv[3], sapling: inv[4], wood: inv[5],
    stone: inv[6], coal: inv[7], iron: inv[8], diamond: inv[9], wood_pickaxe: inv[10],
    stone_pickaxe: inv[11], iron_pickaxe: inv[12], wood_sword: inv[13], stone_sword: inv[14],
    iron_sword: inv[15],
  };
}
export function achievementRecord(ach: Int32Array): Record<Achievement, number> {
  return {
    collect_coal: ach[0], collect_diamond: ach[1], collect_drink: ach[2], collect_iron: ach[3],
    collect_sapling: ach[4], collect_stone: ach[5], collect_wood: ach[6], defeat_skeleton: ach[7],
    defeat_zombie: ach[8], eat_cow: ach[9], eat_plant: ach[10], make_iron_pickaxe: ach[11],
    make_iron_sword: ach[12], make_stone_pickaxe: ach[13], make_stone_sword: ach[14],
    make_wood_pickaxe: ach[15], make_wood_sword: ach[16], place_furnace: ach[17], place_plant: ach[18],
    place_stone: ach[19], place_table: ach[20], wake_up: ach[21],
  };
}

/** The read-only view over a game (types.ts `CrafterView`). */
class GameView implements CrafterView {
  constructor(private readonly game: CrafterEngine) {}
  get step(): number {
    return this.game.stepCount;
  }
  readonly area = AREA;
  material(x: number, y: number): Material | null {
    const id = this.game.world.matAt(x, y);
    return id ? MATERIALS[id - 1] : null;
  }
  objectAt(x: number, y: number): CrafterObjectView | undefined {
    return this.game.world.objAt(x, y) ?? undefined;
  }
  get objects(): readonly CrafterObjectView[] {
    return this.game.world.list.filter((o): o is NonNullable<typeof o> => o !== null);
  }
  get player(): CrafterView['player'] {
    const p = this.game.player;
    return {
      pos: [p.x, p.y],
      facing: [p.fx, p.fy],
      sleeping: p.sleeping,
      inventory: inventoryRecord(p.inv),
      achievements: achievementRecord(p.ach),
    };
  }
  get daylight(): number {
    return this.game.world.daylight;
  }
  get done(): boolean {
    return this.game.last.done;
  }
}
