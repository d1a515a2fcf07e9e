/**
 * Upstream's creature balancing (env.py `_balance_chunk` / `_balance_object`), run every 10th step
 * over every chunk upstream's world has seen an object in: spawn zombies on grass (more at night),
 * skeletons on tunnel paths and cows on grass when a chunk has too few; despawn one when it has too many.
 *
 * Reproducibility: upstream takes the chunk's creatures from a Python set of objects (ordered by
 * memory address) and removes `creatures[randint(0, len)]`, so one seed removes different creatures
 * in different runs. Here the chunk's creatures are taken in CREATION ORDER, and the upstream copy
 * the fixtures come from is patched the same way (tests/fixtures/upstream/crafter/setup.sh).
 */
import { MAT } from './rules';
import { CHUNK, COW, SKELETON, ZOMBIE, Thing, type Player, type World } from './world';

interface Kind {
  type: number;
  material: number;
  spawnDist: number;
  despawnDist: number;
  spawnProb: number;
  despawnProb: number;
  health: number;
  /** Upstream's target_fn: (min, max) creature count for the chunk's free space and the daylight. */
  target(space: number, light: number): [number, number];
}

const KINDS: readonly Kind[] = [
  { type: ZOMBIE, material: MAT.grass, spawnDist: 6, despawnDist: 0, spawnProb: 0.3, despawnProb: 0.4, health: 5,
    target: (space, light) => [space < 50 ? 0 : 3.5 - 3 * light, 3.5 - 3 * light] },
  { type: SKELETON, material: MAT.path, spawnDist: 7, despawnDist: 7, spawnProb: 0.1, despawnProb: 0.1, health: 3,
    target: (space) => [space < 6 ? 0 : 1, 2] },
  { type: COW, material: MAT.grass, spawnDist: 5, despawnDist: 5, spawnProb: 0.01, despawnProb: 0.1, health: 3,
    target: (space, light) => [space < 30 ? 0 : 1, 1.5 + light] },
];

/** Per chunk and kind, the live creatures in creation order (reused between calls). */
const buckets: Thing[][] = [];

export function balanceChunks(world: World, player: Player): void {
  const nChunks = Math.ceil(world.width / CHUNK) * world.chunksY;
  for (let i = 0; i < nChunks * 3; i++) (buckets[i] ??= []).length = 0;
  // Each kind's call only adds or removes creatures of its own kind in its own chunk, so the
  // buckets taken once at the start are what upstream's live sets hold at each call.
  for (const obj of world.list) {
    if (!obj) continue;
    const k = obj.type === ZOMBIE ? 0 : obj.type === SKELETON ? 1 : obj.type === COW ? 2 : -1;
    if (k >= 0) buckets[world.chunkOf(obj.x, obj.y) * 3 + k].push(obj);
  }
  for (const chunk of world.chunkOrder) {
    for (let k = 0; k < 3; k++) balanceKind(world, player, chunk, KINDS[k], buckets[chunk * 3 + k]);
  }
}

function balanceKind(world: World, player: Player, chunk: number, kind: Kind, creatures: Thing[]): void {
  const rnd = world.random;
  const xmin = Math.floor(chunk / world.chunksY) * CHUNK, ymin = (chunk % world.chunksY) * CHUNK;
  const xmax = Math.min(xmin + CHUNK, world.width), ymax = Math.min(ymin + CHUNK, world.height);
  const space = world.chunkMatCount[chunk * 16 + kind.material];
  const [min, max] = kind.target(space, world.daylight);
  if (creatures.length < Math.trunc(min) && rnd.randomSample() < kind.spawnProb) {
    // The i-th cell of the material, x-major as numpy's boolean mask indexing orders it.
    let i = rnd.randint(0, space);
    let px = -1, py = -1;
    for (let x = xmin; x < xmax && px < 0; x++) {
      for (let y = ymin; y < ymax; y++) {
        if (world.mat[x * world.height + y] === kind.material && i-- === 0) {
          px = x;
          py = y;
          break;
        }
      }
    }
    const empty = world.objAt(px, py) === null;
    const away = Math.abs(player.x - px) + Math.abs(player.y - py) >= kind.spawnDist;
    if (empty && away) world.add(new Thing(kind.type, px, py, kind.health));
  } else if (creatures.length > Math.trunc(max) && rnd.randomSample() < kind.despawnProb) {
    const obj = creatures[rnd.randint(0, creatures.length)];
    const away = Math.abs(player.x - obj.x) + Math.abs(player.y - obj.y) >= kind.despawnDist;
    if (away) world.remove(obj);
  }
}
