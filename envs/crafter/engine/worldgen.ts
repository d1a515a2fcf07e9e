/**
 * Crafter's world generation (upstream worldgen.py, SmartPlay 9dec5f2): noise layers for the start
 * area, water and mountains; caves, tunnels, ores, lava, sand, trees; then cows, zombies and
 * skeletons. Cells are visited x-major (x outer, y inner) in two passes, materials then objects, and
 * the generator is drawn from only where upstream's short-circuiting conditions reach it.
 */
import { OpenSimplex } from './opensimplex';
import { CREATURE_WALK, MAT } from './rules';
import { COW, SKELETON, ZOMBIE, Thing, type Player, type World } from './world';

// Material ids as plain constants (read per cell).
const GRASS = MAT.grass, PATH = MAT.path, COAL = MAT.coal, IRON = MAT.iron, DIAMOND = MAT.diamond;
const LAVA = MAT.lava, STONE = MAT.stone, SAND = MAT.sand, WATER = MAT.water, TREE = MAT.tree;
const WALK = CREATURE_WALK;

/** Upstream's `_simplex` for a single size: noise3(x / size, y / size, z). */
function layer(noise: OpenSimplex, x: number, y: number, z: number, size: number): number {
  return noise.noise3(x / size, y / size, z);
}

export function generateWorld(world: World, player: Player): void {
  const noise = new OpenSimplex(world.random.randint(0, 2 ** 31 - 1));
  const tunnels = new Uint8Array(world.width * world.height);
  for (let x = 0; x < world.width; x++) {
    for (let y = 0; y < world.height; y++) setMaterial(world, noise, tunnels, x, y, player);
  }
  for (let x = 0; x < world.width; x++) {
    for (let y = 0; y < world.height; y++) setObject(world, tunnels, x, y, player);
  }
}

function setMaterial(world: World, noise: OpenSimplex, tunnels: Uint8Array, x: number, y: number, player: Player): void {
  const rnd = world.random;
  const dx = x - player.x, dy = y - player.y;
  let start = 4 - Math.sqrt(dx * dx + dy * dy);
  start += 2 * layer(noise, x, y, 8, 3);
  start = 1 / (1 + Math.exp(-start));
  // Two-octave layers ({15: 1, 5: w}): summed in that order; mountains normalised by 1 + w.
  let water = noise.noise3(x / 15, y / 15, 3) + 0.15 * noise.noise3(x / 5, y / 5, 3) + 0.1;
  water -= 2 * start;
  let mountain = (noise.noise3(x / 15, y / 15, 0) + 0.3 * noise.noise3(x / 5, y / 5, 0)) / (1 + 0.3);
  mountain -= 4 * start + 0.3 * water;
  let id: number;
  if (start > 0.5) id = GRASS;
  else if (mountain > 0.15) {
    if (layer(noise, x, y, 6, 7) > 0.15 && mountain > 0.3) id = PATH; // cave
    else if (layer(noise, 2 * x, y / 5, 7, 3) > 0.4) {
      id = PATH; // horizontal tunnel
      tunnels[x * world.height + y] = 1;
    } else if (layer(noise, x / 5, 2 * y, 7, 3) > 0.4) {
      id = PATH; // vertical tunnel
      tunnels[x * world.height + y] = 1;
    } else if (layer(noise, x, y, 1, 8) > 0 && rnd.randomSample() > 0.85) id = COAL;
    else if (layer(noise, x, y, 2, 6) > 0.4 && rnd.randomSample() > 0.75) id = IRON;
    else if (mountain > 0.18 && rnd.randomSample() > 0.994) id = DIAMOND;
    else if (mountain > 0.3 && layer(noise, x, y, 6, 5) > 0.35) id = LAVA;
    else id = STONE;
  } else if (water > 0.25 && water <= 0.35 && layer(noise, x, y, 4, 9) > -0.2) id = SAND;
  else if (water > 0.3) id = WATER;
  else if (layer(noise, x, y, 5, 7) > 0 && rnd.randomSample() > 0.8) id = TREE;
  else id = GRASS;
  world.setMat(x, y, id);
}

function setObject(world: World, tunnels: Uint8Array, x: number, y: number, player: Player): void {
  const rnd = world.random;
  const dx = x - player.x, dy = y - player.y;
  const dist = Math.sqrt(dx * dx + dy * dy);
  const material = world.matAt(x, y);
  if (!((WALK >> material) & 1)) return;
  if (dist > 3 && material === GRASS && rnd.randomSample() > 0.985) {
    world.add(new Thing(COW, x, y, 3));
  } else if (dist > 10 && rnd.randomSample() > 0.993) {
    world.add(new Thing(ZOMBIE, x, y, 5));
  } else if (material === PATH && tunnels[x * world.height + y] && rnd.randomSample() > 0.95) {
    world.add(new Thing(SKELETON, x, y, 3));
  }
}
