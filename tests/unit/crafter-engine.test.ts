/**
 * The Crafter engine against SmartPlay's own Crafter run here (tests/fixtures/upstream/crafter/:
 * setup.sh builds SmartPlay 9dec5f2's vendored crafter with opensimplex 0.4.5 and Debian's numpy,
 * with chunk creatures in creation order; record.py wrote these files):
 * - unit.jsonl.gz: CPython's tuple hash, numpy's RandomState draws, opensimplex noise3 values;
 * - worlds.jsonl.gz: the world (grid, objects in creation order, generator state) after SmartPlay's reset;
 * - transcripts.jsonl.gz: every step of random, scripted and noop players and of fixed action lists
 *   over 1,000+ steps (several nights), all ending in death.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { NumpyRandomState } from '../../envs/core/numpyRandomState.ts';
import { CrafterEngine, createCrafter, daylightAt, replayCrafter } from '../../envs/crafter/engine/game.ts';
import { OpenSimplex } from '../../envs/crafter/engine/opensimplex.ts';
import { crafterWorldSeed, pyTupleHash } from '../../envs/crafter/engine/pyhash.ts';
import { gridString, objectStates, stepState } from '../../envs/crafter/engine/snapshot.ts';

function fixture<T>(name: string): T[] {
  return gunzipSync(readFileSync(new URL(`../fixtures/upstream/crafter/${name}`, import.meta.url)))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

describe('CPython hash, numpy RandomState, opensimplex 0.4.5 (values from python3 here)', () => {
  const rows = fixture<any>('unit.jsonl.gz').slice(1);

  it('hash((seed, episode)) and the world seed', () => {
    const { cases } = rows.find((r) => r.kind === 'hash');
    expect(cases.length).toBeGreaterThan(5);
    for (const [s, e, h, w] of cases) {
      expect(pyTupleHash([BigInt(s), BigInt(e)]).toString(), `hash((${s}, ${e}))`).toBe(h);
      if (Number.isSafeInteger(s)) expect(crafterWorldSeed(s, e)).toBe(w);
    }
  });

  it('RandomState: random_sample, uniform, randint (legacy masked), skipped uniform arrays', () => {
    const cases = rows.filter((r) => r.kind === 'randomstate');
    expect(cases.length).toBe(5);
    for (const { seed, draws } of cases) {
      const r = new NumpyRandomState(seed);
      draws.forEach((d: any[], i: number) => {
        const where = `seed ${seed} draw ${i}`;
        if (d[0] === 'sample') expect(r.randomSample(), where).toBe(d[1]);
        else if (d[0] === 'randint') expect(r.randint(0, d[1]), where).toBe(d[2]);
        else if (d[0] === 'uniform') expect(r.uniform(32, 127), where).toBe(d[1]);
        else r.skipDoubles(d[1]);
      });
    }
  });

  it('OpenSimplex(seed).noise3 bit for bit', () => {
    const cases = rows.filter((r) => r.kind === 'noise3');
    expect(cases.length).toBe(5);
    for (const { seed, points } of cases) {
      const noise = new OpenSimplex(seed);
      for (const [x, y, z, v] of points) expect(noise.noise3(x, y, z), `seed ${seed} at ${x},${y},${z}`).toBe(v);
    }
  });
});

interface UpWorld {
  seed: number;
  episode: number;
  world_seed: number;
  step: number;
  grid: string;
  objects: (string | number)[][];
  rng: [number, number];
}

describe('worlds at SmartPlay reset', () => {
  const worlds = fixture<UpWorld>('worlds.jsonl.gz').slice(1);
  it('has several seeds and episodes', () => {
    expect(worlds.length).toBeGreaterThanOrEqual(8);
    expect(worlds.some((w) => w.episode > 1)).toBe(true);
  });
  for (const w of worlds) {
    it(`seed ${w.seed} episode ${w.episode}: grid, objects in creation order, generator state`, () => {
      const game = new CrafterEngine({ seed: w.seed, episode: w.episode });
      expect(game.worldSeed).toBe(w.world_seed);
      expect(game.stepCount).toBe(w.step);
      expect(gridString(game)).toBe(w.grid);
      expect(objectStates(game)).toEqual(w.objects);
      expect(game.world.random.signature()).toEqual(w.rng);
    });
  }
});

interface UpStep {
  t: number;
  a: number;
  r: number;
  d: boolean;
  pos: number[];
  f: number[];
  inv: number[];
  ach: number[];
  sl: boolean;
  life: number[];
  dl: number;
  rng: number[];
  objs: (string | number)[][];
  mat: number[][];
}
interface UpTranscript {
  name: string;
  seed: number;
  episode: number;
  policy: string;
  steps: UpStep[];
}

describe('transcripts: every step identical to upstream', () => {
  const transcripts = fixture<UpTranscript>('transcripts.jsonl.gz').slice(1);
  it('covers random, scripted and noop players, deaths and nights', () => {
    expect(transcripts.length).toBeGreaterThanOrEqual(6);
    expect(transcripts.filter((t) => t.steps.at(-1)!.inv[0] <= 0).length).toBeGreaterThan(0);
    expect(transcripts.some((t) => t.steps.some((s) => s.dl < 0.5))).toBe(true);
    expect(transcripts.filter((t) => t.steps.length > 1000).length).toBeGreaterThanOrEqual(3);
  });
  for (const tr of transcripts) {
    it(`${tr.name} (${tr.steps.length - 1} steps)`, () => {
      const game = new CrafterEngine({ seed: tr.seed, episode: tr.episode });
      let grid = gridString(game);
      tr.steps.forEach((up, i) => {
        if (i > 0) game.step(up.a);
        const { mat, a: _a, dl, ...expected } = up;
        const { dl: ourDl, ...ours } = stepState(game);
        // numpy's vectorised cos can differ from Math.cos in the last bit; no decision depends on
        // that bit (see 'daylight' below).
        expect(Math.abs(ourDl - dl), `${tr.name} step ${up.t}: daylight`).toBeLessThan(1e-12);
        if (JSON.stringify(ours) !== JSON.stringify(expected)) {
          // Show the first differing field only.
          for (const k of Object.keys(expected) as (keyof typeof expected)[]) {
            expect(ours[k], `${tr.name} step ${up.t}: ${k}`).toEqual(expected[k]);
          }
        }
        const now = gridString(game);
        const changes: number[][] = [];
        for (let c = 0; c < now.length; c++) if (now[c] !== grid[c]) changes.push([c >> 6, c & 63, now.charCodeAt(c) - 48]);
        expect(changes, `${tr.name} step ${up.t}: material changes`).toEqual(mat);
        grid = now;
      });
    });
  }
});

describe('daylight', () => {
  it('no step of a 10,000-step episode lies within 1e-9 of a daylight threshold upstream decides on', () => {
    // Night noise draws: daylight < 0.5; zombie targets int(3.5 - 3·daylight) change at 1/6, 1/2,
    // 5/6; cow targets int(1.5 + daylight) at 1/2. An ulp of difference can flip none of them.
    let closest = Infinity;
    for (let step = 0; step <= 10000; step++) {
      for (const edge of [1 / 6, 0.5, 5 / 6]) closest = Math.min(closest, Math.abs(daylightAt(step) - edge));
    }
    expect(closest).toBeGreaterThan(1e-9);
  });
  it('night (daylight < 0.5) is step % 300 in 148..272', () => {
    const wrong = [];
    for (let step = 0; step < 10000; step++) if (daylightAt(step) < 0.5 !== (step % 300 >= 148 && step % 300 <= 272)) wrong.push(step);
    expect(wrong).toEqual([]);
  });
});

describe('replay', () => {
  it('replayCrafter reaches the same state as stepping', () => {
    const actions = Array.from({ length: 400 }, (_, i) => (i * 7 + 3) % 17);
    const a = createCrafter({ seed: 9 }) as CrafterEngine;
    for (const x of actions) a.step(x);
    const b = replayCrafter({ seed: 9 }, actions) as CrafterEngine;
    expect(stepState(b)).toEqual(stepState(a));
    expect(gridString(b)).toBe(gridString(a));
  });
});
