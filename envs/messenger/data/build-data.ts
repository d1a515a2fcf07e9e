/**
 * Regenerates levels.json from messenger-emma's VGDL files (the game variants'
 * movement types and the start maps). Run from the project root:
 *
 *   npx tsx envs/messenger/data/build-data.ts [path/to/messenger/vgdl_files]
 *
 * (upstream's messenger/envs/vgdl_files, README.md here; default: the team's copy beside the checkout). text_test.json and games.json
 * are plain copies of upstream's files and need no build step.
 *
 * Upstream picks a variant file and a start map with random.choice over a
 * directory listing; the order here (sorted file names) only fixes which seed
 * gives which episode, not the distribution.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.argv[2] ?? '../shared/data/messenger/vgdl_files';
const out = new URL('./levels.json', import.meta.url);

/** Movement type of a sprite in a VGDL game description (as upstream's regex `name > (\S+)`, lowercased). */
function movement(code: string, sprite: string): string {
  const m = new RegExp(`(?:^|\\s)${sprite} > (\\S+)`).exec(code);
  if (!m) throw new Error(`no sprite ${sprite}`);
  return m[1].toLowerCase();
}

/** Start positions [row, col] of each map letter. */
function positions(map: string, letters: string): number[][] {
  const rows = map.split('\n').filter((l) => l.length > 0);
  if (rows.length !== 10 || rows.some((r) => r.length !== 10)) throw new Error('maps are 10×10');
  return [...letters].map((letter) => {
    for (let r = 0; r < 10; r++) {
      const c = rows[r].indexOf(letter);
      if (c !== -1) return [r, c];
    }
    throw new Error(`no ${letter} in map`);
  });
}

const files = (dir: string): string[] => readdirSync(join(root, dir)).filter((f) => f.endsWith('.txt')).sort();
const read = (dir: string, f: string): string => readFileSync(join(root, dir, f), 'utf8');

const stage2 = {
  letters: 'XEMG',
  variants: files('stage_2_nd/variants').map((f) => {
    const code = read('stage_2_nd/variants', f);
    return { file: f, types: ['enemy', 'message', 'goal'].map((s) => movement(code, s)) };
  }),
  maps: files('stage_2_nd/init_states').map((f) => positions(read('stage_2_nd/init_states', f), 'XEMG')),
};
const stage3 = {
  letters: 'XEMGNH',
  variants: files('stage_3/variants').map((f) => {
    const code = read('stage_3/variants', f);
    return { file: f, types: ['enemy', 'message', 'goal', 'decoy_message', 'decoy_goal'].map((s) => movement(code, s)) };
  }),
  maps: files('stage_3/init_states').map((f) => positions(read('stage_3/init_states', f), 'XEMGNH')),
};

writeFileSync(out, `${JSON.stringify({ stage2, stage3 })}\n`);
console.log(`levels.json: stage 2 ${stage2.variants.length} variants, ${stage2.maps.length} maps; stage 3 ${stage3.variants.length} variants, ${stage3.maps.length} maps`);
