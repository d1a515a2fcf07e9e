/**
 * The Crafter engine against statistics of SmartPlay's own Crafter run here
 * (tests/fixtures/upstream/crafter/record.py `episodes`; source in the files' first line):
 * - episodes.jsonl.gz: random-policy episodes, env seed i (first episode), actions drawn from
 *   numpy's RandomState(1000000 + i).randint(0, 17): length, reward, achievements unlocked, death;
 * - resets.jsonl.gz: the same worlds at SmartPlay's reset: material and creature counts.
 * Each recorded episode and world is replayed exactly; then 1,000 episodes and worlds of our own
 * (other seeds, other actions) are compared with upstream's within sampling error.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { NumpyRandomState } from '../../envs/core/numpyRandomState.ts';
import { Rng } from '../../envs/core/rng.ts';
import { CrafterEngine } from '../../envs/crafter/engine/game.ts';
import { ACHIEVEMENTS, ACTIONS, MATERIALS } from '../../envs/crafter/engine/types.ts';
import { COW, SKELETON, ZOMBIE } from '../../envs/crafter/engine/world.ts';

function fixture<T>(name: string): T[] {
  return gunzipSync(readFileSync(new URL(`../fixtures/upstream/crafter/${name}`, import.meta.url)))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T)
    .filter((r: any) => 'seed' in r);
}

interface UpEpisode { seed: number; length: number; reward: number; unlocked: string[]; dead: boolean }
interface UpWorld { seed: number; materials: number[]; cows: number; zombies: number; skeletons: number }

/** A random-policy episode; also the counts of the world it started from. */
function playRandom(seed: number, next: () => number) {
  const g = new CrafterEngine({ seed });
  const world = worldCounts(g);
  let reward = 0, length = 0, done = g.last.done;
  while (!done) {
    const r = g.step(next());
    reward += r.reward;
    length++;
    done = r.done;
  }
  const unlocked = ACHIEVEMENTS.filter((_, i) => g.player.ach[i] > 0);
  return { episode: { length, reward, unlocked, dead: g.player.health <= 0 }, world };
}

/** Material and creature counts (a fresh game's reset state: one noop step moves, never adds or removes). */
function worldCounts(g: CrafterEngine): UpWorld {
  const materials = MATERIALS.map(() => 0);
  for (const id of g.world.mat) materials[id - 1]++;
  const count = (t: number) => g.world.list.filter((o) => o?.type === t).length;
  return { seed: g.seed, materials, cows: count(COW), zombies: count(ZOMBIE), skeletons: count(SKELETON) };
}

const upEpisodes = fixture<UpEpisode>('episodes.jsonl.gz');
const upWorlds = fixture<UpWorld>('resets.jsonl.gz');
/** Upstream's seeds replayed with upstream's actions (numpy RandomState(1000000 + seed)). */
const replayed = new Map<number, ReturnType<typeof playRandom>>();
function replay(seed: number) {
  if (!replayed.has(seed)) {
    const actions = new NumpyRandomState(1_000_000 + seed);
    replayed.set(seed, playRandom(seed, () => actions.randint(0, ACTIONS.length)));
  }
  return replayed.get(seed)!;
}
/** 1,000 episodes of our own: other seeds, actions from our own generator. */
let own: ReturnType<typeof playRandom>[] | undefined;
function ownEpisodes() {
  if (!own) {
    const rng = Rng.fromSeed(20240611);
    own = Array.from({ length: 1000 }, (_, i) => playRandom(50_000 + i, () => rng.below(ACTIONS.length)));
  }
  return own;
}

/** |z| of a difference of two sample means (Welch). */
function zMeans(a: number[], b: number[]): number {
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const variance = (v: number[], m: number) => v.reduce((s, x) => s + (x - m) ** 2, 0) / (v.length - 1);
  const ma = mean(a), mb = mean(b);
  const se = Math.sqrt(variance(a, ma) / a.length + variance(b, mb) / b.length);
  return se === 0 ? (ma === mb ? 0 : Infinity) : Math.abs(ma - mb) / se;
}

// 25 comparisons per family at |z| < 4: a chance false alarm is below 0.2 %, and the seeds are
// fixed, so the test cannot flicker.
const Z_LIMIT = 4;

describe('random-policy episodes', () => {
  const up = upEpisodes;

  it('upstream recorded 1,000 episodes', () => {
    expect(up.length).toBe(1000);
  });

  it('every recorded episode replays exactly (same actions): length, reward, achievements, death', () => {
    const diffs: string[] = [];
    for (const e of up) {
      const ours = replay(e.seed).episode;
      if (ours.length !== e.length || Math.abs(ours.reward - e.reward) > 1e-9 || ours.dead !== e.dead || ours.unlocked.join() !== [...e.unlocked].sort().join()) {
        diffs.push(`seed ${e.seed}: ours ${JSON.stringify(ours)} upstream ${JSON.stringify(e)}`);
      }
    }
    expect(diffs.slice(0, 5)).toEqual([]);
  });

  it("1,000 episodes of our own (other seeds and actions) match upstream's within sampling error", () => {
    const ours = ownEpisodes().map((o) => o.episode);
    const zs: Record<string, number> = {
      length: zMeans(ours.map((e) => e.length), up.map((e) => e.length)),
      reward: zMeans(ours.map((e) => e.reward), up.map((e) => e.reward)),
      dead: zMeans(ours.map((e) => +e.dead), up.map((e) => +e.dead)),
    };
    for (const a of ACHIEVEMENTS) {
      zs[a] = zMeans(ours.map((e) => +e.unlocked.includes(a)), up.map((e) => +e.unlocked.includes(a)));
    }
    const off = Object.entries(zs).filter(([, z]) => !(z < Z_LIMIT));
    expect(off).toEqual([]);
  });
});

describe('worlds at reset', () => {
  const up = upWorlds;

  it('upstream recorded 1,000 worlds', () => {
    expect(up.length).toBe(1000);
  });

  it('every recorded world has the same material and creature counts', () => {
    const diffs = up.filter((w) => JSON.stringify(replay(w.seed).world) !== JSON.stringify(w)).map((w) => w.seed);
    expect(diffs).toEqual([]);
  });

  it("1,000 worlds of our own (other seeds) match upstream's counts within sampling error", () => {
    const ours = ownEpisodes().map((o) => o.world);
    const zs: Record<string, number> = {};
    MATERIALS.forEach((m, k) => {
      zs[m] = zMeans(ours.map((w) => w.materials[k]), up.map((w) => w.materials[k]));
    });
    for (const key of ['cows', 'zombies', 'skeletons'] as const) zs[key] = zMeans(ours.map((w) => w[key]), up.map((w) => w[key]));
    const off = Object.entries(zs).filter(([, z]) => !(z < Z_LIMIT));
    expect(off).toEqual([]);
  });
});
