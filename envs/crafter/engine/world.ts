/**
 * Crafter's world state (upstream engine.py `World`): the material grid, the object grid, the
 * objects in creation order and the chunks in the order upstream's dict first saw them.
 * Positions are upstream's (x, y); grids are stored x-major like upstream's numpy arrays.
 */
import { NumpyRandomState } from '../../core/numpyRandomState';
import { ITEMS, ACHIEVEMENTS, type CrafterObjectView, type ObjectKind, type Pos } from './types';
import { ITEM_INITIAL } from './rules';

export const PLAYER = 0, COW = 1, ZOMBIE = 2, SKELETON = 3, ARROW = 4, PLANT = 5;
const KIND_NAMES: readonly ObjectKind[] = ['player', 'cow', 'zombie', 'skeleton', 'arrow', 'plant'];

/** Upstream's chunk size (env.py: `World(area, materials, (12, 12))`). */
export const CHUNK = 12;

/** One object of the world; `type` picks its update rule. */
export class Thing implements CrafterObjectView {
  /** Index in the world's object list = creation order (1-based; the player is 1). */
  index = 0;
  removed = false;
  protected hp: number;
  /** Facing (player, arrows). */
  fx = 0;
  fy = 0;
  /** Zombie attack cooldown, skeleton reload, plant growth. */
  cooldown = 0;
  reload = 0;
  grown = 0;

  constructor(readonly type: number, public x: number, public y: number, health: number) {
    this.hp = health;
  }

  get health(): number {
    return this.hp;
  }
  set health(value: number) {
    this.hp = value;
  }

  get kind(): ObjectKind {
    return KIND_NAMES[this.type];
  }
  get pos(): Pos {
    return [this.x, this.y];
  }
  get facing(): Pos | undefined {
    return this.type === PLAYER || this.type === ARROW ? [this.fx, this.fy] : undefined;
  }
  get ripe(): boolean | undefined {
    return this.type === PLANT ? this.grown > 300 : undefined;
  }
}

/** The player: inventory and achievements as counters in upstream's order, plus the life counters. */
export class Player extends Thing {
  readonly inv = new Int32Array(ITEMS.length);
  readonly ach = new Int32Array(ACHIEVEMENTS.length);
  sleeping = false;
  /** Upstream's `_hunger`, `_thirst`, `_fatigue`, `_recover` (halves while sleeping). */
  hunger = 0;
  thirst = 0;
  fatigue = 0;
  recover = 0;
  lastHealth: number;
  action = 0;

  constructor(x: number, y: number) {
    super(PLAYER, x, y, 0);
    ITEMS.forEach((item, i) => (this.inv[i] = ITEM_INITIAL[item]));
    this.fx = 0;
    this.fy = 1;
    this.lastHealth = this.inv[0];
  }

  // The player's health is its inventory's first entry, as upstream's `health` property.
  override get health(): number {
    return this.inv[0];
  }
  override set health(value: number) {
    this.inv[0] = value;
  }
}

/** Lower an object's health, never below 0 (upstream's `health` setter). */
export function hurt(obj: Thing, amount: number): void {
  obj.health = Math.max(0, obj.health - amount);
}

export class World {
  readonly width: number;
  readonly height: number;
  readonly random: NumpyRandomState;
  readonly mat: Uint8Array;
  /** Object index at each cell, 0 = none. */
  readonly objMap: Int32Array;
  /** Upstream's `_objects`: creation order, removed ones null, index 0 unused. */
  readonly list: (Thing | null)[] = [null];
  daylight = 0;
  /** Chunk ids in the order upstream's `_chunks` defaultdict first created their keys. */
  readonly chunkOrder: number[] = [];
  private readonly chunkSeen: Uint8Array;
  readonly chunksY: number;
  /** Cells of each material per chunk ([chunk * 16 + id]), kept by setMat for the balancing. */
  readonly chunkMatCount: Int32Array;

  constructor(width: number, height: number, seed: number) {
    this.width = width;
    this.height = height;
    this.random = new NumpyRandomState(seed);
    this.mat = new Uint8Array(width * height);
    this.objMap = new Int32Array(width * height);
    this.chunksY = Math.ceil(height / CHUNK);
    this.chunkSeen = new Uint8Array(Math.ceil(width / CHUNK) * this.chunksY);
    this.chunkMatCount = new Int32Array(this.chunkSeen.length * 16);
    // All cells start as id 0.
    for (let x = 0; x < width; x++) for (let y = 0; y < height; y++) this.chunkMatCount[this.chunkOf(x, y) * 16]++;
  }

  inside(x: number, y: number): boolean {
    return x >= 0 && y >= 0 && x < this.width && y < this.height;
  }
  /** Material id at (x, y), 0 outside the area. */
  matAt(x: number, y: number): number {
    return this.inside(x, y) ? this.mat[x * this.height + y] : 0;
  }
  setMat(x: number, y: number, id: number): void {
    const cell = x * this.height + y;
    const base = this.chunkOf(x, y) * 16;
    this.chunkMatCount[base + this.mat[cell]]--;
    this.chunkMatCount[base + id]++;
    this.mat[cell] = id;
  }
  objAt(x: number, y: number): Thing | null {
    if (!this.inside(x, y)) return null;
    const i = this.objMap[x * this.height + y];
    return i ? this.list[i] : null;
  }
  /** Upstream's `is_free`: no object and a material in the walk mask. */
  isFree(x: number, y: number, walkMask: number): boolean {
    if (!this.inside(x, y)) return false;
    const cell = x * this.height + y;
    return this.objMap[cell] === 0 && ((walkMask >> this.mat[cell]) & 1) === 1;
  }

  chunkOf(x: number, y: number): number {
    return Math.floor(x / CHUNK) * this.chunksY + Math.floor(y / CHUNK);
  }
  private touchChunk(id: number): void {
    if (!this.chunkSeen[id]) {
      this.chunkSeen[id] = 1;
      this.chunkOrder.push(id);
    }
  }

  add(obj: Thing): void {
    const cell = obj.x * this.height + obj.y;
    if (this.objMap[cell] !== 0) throw new Error(`crafter: cell ${obj.x},${obj.y} is taken`);
    obj.index = this.list.length;
    this.list.push(obj);
    this.objMap[cell] = obj.index;
    this.touchChunk(this.chunkOf(obj.x, obj.y));
  }

  remove(obj: Thing): void {
    if (obj.removed) return;
    this.list[obj.index] = null;
    this.objMap[obj.x * this.height + obj.y] = 0;
    obj.removed = true;
  }

  move(obj: Thing, x: number, y: number): void {
    if (obj.removed) return;
    this.objMap[x * this.height + y] = obj.index;
    this.objMap[obj.x * this.height + obj.y] = 0;
    const before = this.chunkOf(obj.x, obj.y);
    const after = this.chunkOf(x, y);
    if (before !== after) this.touchChunk(after);
    obj.x = x;
    obj.y = y;
  }

  /** Upstream's `Object.move`: step if the target is free; true if it was (even for a removed object). */
  tryMove(obj: Thing, dx: number, dy: number, walkMask: number): boolean {
    const x = obj.x + dx, y = obj.y + dy;
    if (!this.isFree(x, y, walkMask)) return false;
    this.move(obj, x, y);
    return true;
  }

  /**
   * Materials present in upstream's `nearby(pos, d)` window, as a bit mask over ids. Upstream slices
   * its numpy grid `[x - d : x + d + 1]`, so a negative start wraps around (an empty window at the
   * map's first row or column); this keeps that.
   */
  nearbyMask(x: number, y: number, d: number): number {
    const [x0, x1] = pySlice(x - d, x + d + 1, this.width);
    const [y0, y1] = pySlice(y - d, y + d + 1, this.height);
    let mask = 0;
    for (let i = x0; i < x1; i++) for (let j = y0; j < y1; j++) mask |= 1 << this.mat[i * this.height + j];
    return mask;
  }
}

/** Python slice bounds [start:stop] on an axis of length n (step 1). */
function pySlice(start: number, stop: number, n: number): [number, number] {
  let a = start < 0 ? Math.max(0, start + n) : Math.min(start, n);
  const b = stop < 0 ? Math.max(0, stop + n) : Math.min(stop, n);
  if (a > b) a = b;
  return [a, b];
}
