/**
 * A 12-problem AgentBoard PDDL subset log written by AgentBoard's own task and logging code
 * (tests/fixtures/agentboard/README.md): records numbered 0–11 are matched to our problems by
 * task_name and goal, verify step by step, score to AgentBoard's all_results.txt, and import as
 * JSON Lines the app's reader accepts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readLog } from '../../runtime/importers/index.ts';
import { parseJsonStream } from '../../runtime/importers/agentboard.ts';
import { verifyCommand } from '../../scripts/verify.ts';
import { scoresCommand } from '../../scripts/scores.ts';
import { importCommand } from '../../scripts/import.ts';
import { parseJsonl } from '../../runtime/jsonl.ts';

const DIR = 'tests/fixtures/agentboard/pddl-subset/scripted-agent';
const LOG = `${DIR}/logs/pddl.jsonl`;
const text = readFileSync(LOG, 'utf8');

async function run(cmd: typeof verifyCommand, args: string[]) {
  let out = '';
  let err = '';
  const code = await cmd(args, (s) => (out += s), (s) => (err += s));
  return { code, out, err };
}

describe('AgentBoard subset log', () => {
  it('matches the 12 records to the first 3 problems of each domain and verifies 12/12', async () => {
    const read = await readLog(text, LOG);
    expect(read.unmatched).toEqual([]);
    expect(read.episodes.map((e) => e.header.task)).toEqual(['pddl-0', 'pddl-1', 'pddl-2', 'pddl-20', 'pddl-21', 'pddl-22', 'pddl-30', 'pddl-31', 'pddl-32', 'pddl-50', 'pddl-51', 'pddl-52']);
    expect(read.episodes[0].header.driver.name).toBe('scripted-agent');
    // The replayed validity gives each record's own grounding_acc.
    const records = parseJsonStream(text) as { grounding_acc: number }[];
    read.episodes.forEach((e, i) => expect(e.steps.filter((s) => s.valid).length / e.steps.length).toBe(records[i].grounding_acc));
    const { code, out } = await run(verifyCommand, [LOG]);
    expect(out).toContain('12 of 12 episode(s) verified');
    expect(code).toBe(0);
  });

  it('names a record that matches no problem, and still verifies the others', async () => {
    const records = parseJsonStream(text) as Record<string, unknown>[];
    records[4] = { ...records[4], goal: 'The goal is to satisfy the following conditions: b1 is on b99. ' };
    const edited = records.map((r) => JSON.stringify(r, null, 2) + '\n').join('');
    const read = await readLog(edited, LOG);
    expect(read.episodes).toHaveLength(11);
    expect(read.unmatched).toEqual([{ entry: 5, id: 4, taskName: 'blockworld', goal: 'The goal is to satisfy the following conditions: b1 is on b99. ', reason: 'no pddl problem has task_name "blockworld" and this goal' }]);
    const { mkdtempSync, writeFileSync, mkdirSync } = await import('node:fs');
    const dir = mkdtempSync('/tmp/agentplay-log-');
    mkdirSync(`${dir}/m/logs`, { recursive: true });
    writeFileSync(`${dir}/m/logs/pddl.jsonl`, edited);
    const v = await run(verifyCommand, [`${dir}/m/logs/pddl.jsonl`]);
    expect(v.out).toMatch(/FAIL .* unmatched entry 5 \(id 4, blockworld, goal "The goal is to satisfy the following conditions: b1 is on b99\. "\)/);
    expect(v.out).toContain('11 of 11 episode(s) verified; 1 log record(s) matched no problem');
    expect(v.code).toBe(1);
    const i = await run(importCommand, [`${dir}/m/logs/pddl.jsonl`]);
    expect(i.err).toContain('left out entry 5 (id 4, blockworld');
    expect(parseJsonl(i.out)).toHaveLength(11);
  });

  it('scores print the all_results.txt AgentBoard wrote for the run', async () => {
    const written = readFileSync(`${DIR}/all_results.txt`, 'utf8').trim();
    let out = '';
    expect(await scoresCommand([LOG], (s) => (out += s))).toBe(0);
    expect(out).toContain(`  ${written}\n`);
    let json = '';
    await scoresCommand([LOG, '--json'], (s) => (json += s));
    expect(JSON.parse(json).benchmarkLogs[0].figures).toEqual(JSON.parse(written));
  });

  it('import writes JSON Lines the reader accepts', async () => {
    const { code, out, err } = await run(importCommand, [LOG]);
    expect(code).toBe(0);
    expect(err).toContain('12 episode(s) written');
    const episodes = parseJsonl(out);
    expect(episodes.map((e) => e.header.task)).toContain('pddl-52');
    const bad = await run(importCommand, ['README.md']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/README\.md: neither an AgentBoard log/);
  });
});
