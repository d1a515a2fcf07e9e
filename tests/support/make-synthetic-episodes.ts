/**
 * N synthetic episodes (30 steps each) over every task of the catalogue's benchmark sets, as a
 * JSON Lines export, for the scores view's browser bench.
 * Run: npx tsx tests/support/make-synthetic-episodes.ts OUT.jsonl [N]
 */
import { writeFileSync } from 'node:fs';
import { loadAll } from '../../envs/index.ts';
import { toJsonl } from '../../runtime/jsonl.ts';
import { syntheticEpisodes, type SyntheticTask } from '../../runtime/scores/synthetic.ts';
import { suiteOf } from '../../suites/index.ts';

const [out, n = '10000'] = process.argv.slice(2);
if (!out) throw new Error('Usage: make-synthetic-episodes.ts OUT.jsonl [N]');
const tasks: SyntheticTask[] = (await loadAll()).flatMap((env) => env.tasks().map((t) => ({ env: env.id, task: t.id, table: suiteOf(env).table })));
const records = syntheticEpisodes(Number(n), tasks);
writeFileSync(out, toJsonl(records));
console.log(`${records.length} episodes, ${records.reduce((a, r) => a + r.steps.length, 0)} steps written to ${out}`);
