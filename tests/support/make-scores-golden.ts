/**
 * Writes the scores golden figures (tests/fixtures/scores/golden.json) from the scoring as it
 * stood before the scores view's speed work (commit 9131dc3: computeScores and episodePoints on
 * whole records). Not to be rerun to make a failing golden test pass: the point of the file is
 * that faster scoring gives the same figures as that scoring did.
 * Run: npx tsx tests/support/make-scores-golden.ts
 */
import { writeFileSync } from 'node:fs';
import { computeScores, episodePoints, toCsv } from '../../runtime/scores/index.ts';
import { goldenRecords, GOLDEN_OPTIONS, sha256 } from '../unit/scores-golden.ts';
import { testTaskInfo } from '../unit/scores-episodes.ts';

const records = goldenRecords();
// Hashes of the whole report, points and CSV, and the CSV's first lines to read when they differ.
const out: Record<string, { csv: string; report: string; points: string; csvHead: string[] }> = {};
for (const [name, o] of Object.entries(GOLDEN_OPTIONS)) {
  const options = { ...o, taskInfo: testTaskInfo };
  const report = computeScores(records, options);
  const csv = toCsv(report);
  out[name] = { csv: sha256(csv), report: sha256(JSON.stringify(report)), points: sha256(JSON.stringify(episodePoints(records, options))), csvHead: csv.split('\n').slice(0, 25) };
}
writeFileSync('tests/fixtures/scores/golden.json', `${JSON.stringify(out, null, 1)}\n`);
console.log(Object.entries(out).map(([k, v]) => `${k}: ${v.csvHead.length} CSV lines kept`).join('; '));
