/**
 * The ALFWorld engine against upstream's own outputs: TextWorld's PddlEnv with ALFWorld's demangler,
 * run here on every one of the 134 games in both wordings (tests/fixtures/upstream/alfworld/:
 * record.py, README.md). For each game: the welcome text, the admissible commands in order and
 * `won` at reset, then after every step of the game's walkthrough and of a 30-step random walk that
 * mixes in commands that are not admissible (wrong case, extra spaces, unknown words).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GAMES, loadProblem, worldOf, type Wording } from '../../envs/alfworld/games.ts';

interface UpStep {
  cmd: string;
  feedback: string;
  /** Left out where the recorder found them unchanged since the previous line. */
  admissible_commands?: string[];
  won: boolean;
}
interface UpGame {
  game: string;
  variant: Wording;
  reset: { feedback: string; admissible_commands: string[]; won: boolean };
  walkthrough: UpStep[];
  random: UpStep[];
}

const records: UpGame[] = gunzipSync(readFileSync(new URL('../fixtures/upstream/alfworld/games.jsonl.gz', import.meta.url)))
  .toString('utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l));

/** Plays one upstream record; returns the first difference, or null. */
async function firstDifference(rec: UpGame): Promise<string | null> {
  const g = GAMES.findIndex((x) => x.path === rec.game);
  if (g < 0) return `${rec.game}: not among our games`;
  await loadProblem(g);
  const world = worldOf(g, rec.variant);
  const same = (where: string, up: { feedback: string; admissible_commands?: string[]; won: boolean }, feedback: string, admissible: string[], last: string[], won: boolean) => {
    if (feedback !== up.feedback) return `${where}: feedback ${JSON.stringify(feedback)}, upstream ${JSON.stringify(up.feedback)}`;
    const want = up.admissible_commands ?? last;
    if (JSON.stringify(admissible) !== JSON.stringify(want)) return `${where}: admissible ${JSON.stringify(admissible)}, upstream ${JSON.stringify(want)}`;
    if (won !== up.won) return `${where}: won ${won}, upstream ${up.won}`;
    return null;
  };
  const start = world.initial;
  const reset = same(`${rec.game} (${rec.variant}) reset`, rec.reset, world.intro(start), world.admissible(start), [], world.won(start));
  if (reset) return reset;
  for (const walk of ['walkthrough', 'random'] as const) {
    let state = start;
    let last = rec.reset.admissible_commands;
    for (const [i, step] of rec[walk].entries()) {
      const played = world.play(state, step.cmd);
      if (played) state = played.state;
      const diff = same(`${rec.game} (${rec.variant}) ${walk} step ${i + 1} ${JSON.stringify(step.cmd)}`, step, played ? played.feedback : 'Nothing happens.', world.admissible(state), last, world.won(state));
      if (diff) return diff;
      last = step.admissible_commands ?? last;
    }
  }
  return null;
}

describe('ALFWorld against TextWorld and ALFWorld run here', () => {
  it('holds every game in both wordings', () => {
    expect(records.length).toBe(2 * GAMES.length);
    expect(new Set(records.map((r) => `${r.game} ${r.variant}`)).size).toBe(records.length);
  });

  for (const variant of ['original', 'patched'] as const) {
    it(`gives upstream's texts, admissible commands and won on all 134 games (${variant} wording)`, async () => {
      const diffs: string[] = [];
      for (const rec of records.filter((r) => r.variant === variant)) {
        const d = await firstDifference(rec);
        if (d) diffs.push(d);
      }
      expect(diffs).toEqual([]);
    }, 300_000);
  }
});
