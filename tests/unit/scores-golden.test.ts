/**
 * Faster scoring gives the same figures as the scoring before the speed work: the report, the
 * per-episode points and the CSV on a fixed-seed mix of 2,000 episodes, compared with what
 * commit 9131dc3 computed (tests/fixtures/scores/golden.json, tests/support/make-scores-golden.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeScores, episodeFacts, episodePoints, scoreFacts, toCsv } from '../../runtime/scores/index.ts';
import { testTaskInfo } from './scores-episodes.ts';
import { goldenRecords, GOLDEN_OPTIONS, sha256 } from './scores-golden.ts';

const golden: Record<string, { csv: string; report: string; points: string; csvHead: string[] }> = JSON.parse(
  readFileSync(new URL('../fixtures/scores/golden.json', import.meta.url), 'utf8'),
);
const records = goldenRecords();

describe('scores golden figures', { timeout: 60_000 }, () => {
  for (const [name, o] of Object.entries(GOLDEN_OPTIONS)) {
    it(`computeScores and episodePoints on whole records (${name})`, () => {
      const options = { ...o, taskInfo: testTaskInfo };
      const report = computeScores(records, options);
      const csv = toCsv(report);
      expect(csv.split('\n').slice(0, 25)).toEqual(golden[name].csvHead);
      expect(sha256(csv)).toBe(golden[name].csv);
      expect(sha256(JSON.stringify(report))).toBe(golden[name].report);
      expect(sha256(JSON.stringify(episodePoints(records, options)))).toBe(golden[name].points);
    });

    it(`scoreFacts on the episodes' facts, as the scores view scores (${name})`, () => {
      const options = { ...o, taskInfo: testTaskInfo };
      // Reversed: the figures must not depend on the order episodes arrive in.
      const { report, points } = scoreFacts(records.map(episodeFacts).reverse(), options);
      expect(sha256(toCsv(report))).toBe(golden[name].csv);
      expect(sha256(JSON.stringify(report))).toBe(golden[name].report);
      expect(sha256(JSON.stringify(points))).toBe(golden[name].points);
    });
  }
});
