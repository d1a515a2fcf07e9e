/**
 * Subgoal sets as data: the schema, versions, the project's JSONL of sets, and AgentBoard's
 * test.jsonl rows — exporting the built-in sets gives back the shipped data byte for byte.
 */
import { babyaiBuiltinSet, babyaiBuiltinSets, pddlBuiltinSets } from '../support/builtinSets.ts';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { BABYAI_TEST_JSONL } from '../../envs/babyai/tools/ground-truth.ts';
import pddlRows from '../../envs/pddl/data/agentboard-pddl-test.json';
import {
  agentboardJsonl,
  agentboardRow,
  deriveSet,
  newSet,
  nextVersion,
  proposeSubgoal,
  rescore,
  prepareEpisodes,
  parseSubgoalSet,
  planAgentBoardImport,
  problemIdOf,
  pyJsonDumps,
  setFromAgentBoardRow,
  setsFromAgentBoardJsonl,
  setsFromJsonl,
  setsToJsonl,
  type SubgoalSet,
} from '../../runtime/annotation/index.ts';
import { babyaiRowText } from '../../envs/babyai/annotation/row-text.ts';

const shippedBabyAI = gunzipSync(readFileSync(`${BABYAI_TEST_JSONL}.gz`)).toString('utf8');

const base = {
  format: 1,
  env: 'hanoi',
  task: 'hanoi-3',
  author: 'ann',
  version: 1,
  parentVersion: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  subgoals: [{ label: 'small disk on C', matcher: { kind: 'pattern', pattern: 'C: |bottom, [0]' } }],
};

describe('schema', () => {
  it('accepts a set and fills the default crediting', () => {
    const r = parseSubgoalSet(base);
    expect(r.ok && r.value.crediting).toBe('subgoal');
  });

  it('rejects bad sets with the field named', () => {
    const bad = (patch: object) => parseSubgoalSet({ ...base, ...patch });
    expect(bad({ version: 0 })).toMatchObject({ ok: false, message: expect.stringContaining('version') });
    expect(bad({ author: '' })).toMatchObject({ ok: false, message: expect.stringContaining('author') });
    expect(bad({ createdAt: 'yesterday' })).toMatchObject({ ok: false, message: expect.stringContaining('createdAt') });
    expect(bad({ subgoals: [{ label: 'x', matcher: { kind: 'regex', source: '(' } }] })).toMatchObject({ ok: false, message: expect.stringContaining('subgoals.0.matcher') });
    expect(bad({ subgoals: [{ label: 'x', matcher: { kind: 'regex', source: 'a', flags: 'g' } }] }).ok).toBe(false);
    expect(bad({ subgoals: [{ label: 'x', matcher: { kind: 'telepathy' } }] }).ok).toBe(false);
    expect(bad({ subgoals: [{ label: 'x', matcher: { kind: 'any', of: [] } }] }).ok).toBe(false);
  });
});

describe('versions and the JSONL of sets', () => {
  it('deriveSet makes the next version with its parent; the parent is unchanged', () => {
    const parent = babyaiBuiltinSets()[0];
    const v = nextVersion([parent], 'babyai', 'babyai-0');
    expect(v).toBe(2);
    const child = deriveSet(parent, 'ann', v, { subgoals: parent.subgoals.slice(1) }, new Date('2026-02-03T04:05:06Z'));
    expect(child).toMatchObject({ author: 'ann', version: 2, parentVersion: 1, createdAt: '2026-02-03T04:05:06.000Z', task: 'babyai-0' });
    expect(child.subgoals).toHaveLength(1);
    expect(parent.subgoals).toHaveLength(2);
    expect(nextVersion([parent, child], 'babyai', 'babyai-0')).toBe(3);
    expect(nextVersion([parent, child], 'babyai', 'babyai-1')).toBe(1);
  });

  it('a Hanoi set authored from scratch on a replay: proposed subgoals fire where they were marked', () => {
    const observations = [
      'Current configuration:\n- A: |bottom, [2, 1, 0], top|\n- B: |bottom, [], top|\n- C: |bottom, [], top|',
      'You tried to move the top disk of rod a to the top of rod c. Current configuration:\n- A: |bottom, [2, 1], top|\n- B: |bottom, [], top|\n- C: |bottom, [0], top|',
      'You tried to move the top disk of rod a to the top of rod b. Current configuration:\n- A: |bottom, [2], top|\n- B: |bottom, [1], top|\n- C: |bottom, [0], top|',
    ];
    const first = proposeSubgoal(observations, 1)!;
    const second = proposeSubgoal(observations, 2)!;
    const s = newSet('hanoi', 'hanoi-3', 'ann', nextVersion([], 'hanoi', 'hanoi-3'), [first, second], 'subgoal', new Date('2026-01-01T00:00:00Z'));
    expect(s).toMatchObject({ version: 1, parentVersion: null, crediting: 'subgoal' });
    const r = rescore(s, prepareEpisodes([{ id: 'e', initial: observations[0], steps: observations.slice(1).map((observation) => ({ observation })) }]));
    expect(r.episodes[0].fired).toEqual([1, 2]);
    expect(proposeSubgoal([observations[0], observations[0]], 1)).toBeNull();
  });

  it('round-trips every built-in set; a bad line refuses the whole file, naming the line', () => {
    const sets = [...babyaiBuiltinSets(), ...pddlBuiltinSets()];
    expect(sets).toHaveLength(172);
    const text = setsToJsonl(sets);
    const back = setsFromJsonl(text);
    expect(back.ok && back.value).toEqual(sets);
    expect(back.ok && setsToJsonl(back.value)).toBe(text);
    const lines = text.split('\n');
    lines[3] = lines[3].replace('"version":1', '"version":-1');
    expect(setsFromJsonl(lines.join('\n'))).toEqual({ ok: false, message: expect.stringMatching(/^line 4: version/) });
    expect(setsFromJsonl('{"format":1}\nnot json')).toMatchObject({ ok: false, message: expect.stringMatching(/^line 1: /) });
  });
});

describe("AgentBoard's test.jsonl", () => {
  it('BabyAI: exporting the 112 built-in sets gives the shipped test.jsonl byte for byte', () => {
    const sets = babyaiBuiltinSets(babyaiRowText);
    const out = agentboardJsonl(sets);
    expect(out.ok).toBe(true);
    expect(out.ok && out.value.length).toBe(64_605);
    expect(out.ok && out.value).toBe(shippedBabyAI);
  });

  it('BabyAI: importing the shipped file and exporting it again is byte-identical too', () => {
    const imported = setsFromAgentBoardJsonl(shippedBabyAI, { subgoalText: 'pattern', createdAt: '2024-04-23T00:00:00.000Z' });
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    expect(imported.value.map((s) => s.task)).toEqual(babyaiBuiltinSets().map((s) => s.task));
    expect(imported.value.map((s) => s.subgoals)).toEqual(babyaiBuiltinSets().map((s) => s.subgoals));
    const again = agentboardJsonl(imported.value);
    expect(again.ok && again.value).toBe(shippedBabyAI);
  });

  it('PDDL: the 60 built-in sets export as the shipped rows, in key order, in Python\'s JSON layout', () => {
    const out = agentboardJsonl(pddlBuiltinSets());
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    const lines = out.value.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(60);
    lines.forEach((line, i) => {
      expect(JSON.stringify(JSON.parse(line))).toBe(JSON.stringify(pddlRows[i]));
      expect(line).toBe(pyJsonDumps(pddlRows[i]));
    });
    expect(lines[0].startsWith('{"id": 0, "task": "pddl", "goal": "The goal is to satisfy the following conditions: ball1 is at roomb.')).toBe(true);
    const back = setsFromAgentBoardJsonl(out.value, { subgoalText: 'literal' });
    expect(back.ok && agentboardJsonl(back.value)).toEqual(out);
  });

  it("pyJsonDumps writes what Python's json.dumps writes", () => {
    expect(pyJsonDumps({ a: [1, 'é', null, true], b: { c: 'x"\n\u0001' } })).toBe('{"a": [1, "\\u00e9", null, true], "b": {"c": "x\\"\\n\\u0001"}}');
    expect(pyJsonDumps('😀')).toBe('"\\ud83d\\ude00"');
  });

  it('an edited set keeps its row fields; an annotator-made set gets the caller\'s; non-AgentBoard matchers are refused', () => {
    const parent = babyaiBuiltinSets(babyaiRowText)[52];
    const edited = deriveSet(parent, 'ann', 2, {
      subgoals: [...parent.subgoals, { label: 'carry', matcher: { kind: 'any', of: [{ kind: 'pattern', pattern: 'carrying a red' }, { kind: 'pattern', pattern: 'carrying a blue' }] } }],
    });
    const row = agentboardRow(edited);
    expect(row.ok && Object.keys(row.value)).toEqual(['id', 'task', 'goal', 'subgoals', 'subgoals_1', 'difficulty', 'additional_info', 'agentplay']);
    expect(row.ok && row.value.subgoals_1).toEqual([' There is a blue open door **', ' There is a blue closed door **', 'carrying a blue']);

    const own = parseSubgoalSet(base);
    if (!own.ok) throw new Error(own.message);
    const ownRow = agentboardRow(own.value, { id: 0, goal: 'Move all disks to rod C', difficulty: 'easy' });
    expect(ownRow.ok && pyJsonDumps(ownRow.value)).toBe(
      '{"id": 0, "task": "hanoi", "goal": "Move all disks to rod C", "subgoals": ["C: |bottom, [0]"], "difficulty": "easy", ' +
        '"agentplay": {"task": "hanoi-3", "author": "ann", "version": 1, "parent_version": null, "created_at": "2026-01-01T00:00:00.000Z", "crediting": "subgoal", "labels": ["small disk on C"]}}',
    );

    const regex: SubgoalSet = { ...own.value, subgoals: [{ label: 'r', matcher: { kind: 'regex', source: 'x' } }] };
    expect(agentboardRow(regex)).toMatchObject({ ok: false, message: expect.stringContaining('regex') });
    const ragged: SubgoalSet = { ...edited, subgoals: [...edited.subgoals, { label: 'one', matcher: { kind: 'pattern', pattern: 'x' } }] };
    expect(agentboardRow(ragged).ok).toBe(false);
  });

  it('round trip: our sets and AgentBoard\'s export, import and export again byte for byte, with their authors and versions', () => {
    const builtin = babyaiBuiltinSets(babyaiRowText)[3];
    const bob = deriveSet(builtin, 'bob', 3, { subgoals: [{ label: 'near the goal', matcher: { kind: 'pattern', pattern: builtin.subgoals[0].matcher.kind === 'pattern' ? builtin.subgoals[0].matcher.pattern : '' } }] });
    const own = parseSubgoalSet(base);
    if (!own.ok) throw new Error(own.message);
    const hanoiDefaults = { id: problemIdOf('hanoi', 'hanoi-3'), goal: 'Move all disks to rod C', difficulty: 'easy' };
    for (const sets of [[builtin, bob], [own.value]]) {
      const env = sets[0].env;
      const first = agentboardJsonl(sets, () => hanoiDefaults);
      if (!first.ok) throw new Error(first.message);
      const read = setsFromAgentBoardJsonl(first.value, { subgoalText: 'pattern' });
      if (!read.ok) throw new Error(read.message);
      const plan = planAgentBoardImport(read.value, { env, task: sets[0].task, builtin: env === 'babyai' ? builtin : null, author: 'carol', nextVersion: 9 });
      // AgentBoard's own row is recognised as the built-in set; ours keep author, version, parent, labels.
      expect(plan.builtin).toBe(env === 'babyai' ? 1 : 0);
      expect(plan.store.map((s) => [s.author, s.version, s.parentVersion, s.subgoals])).toEqual(sets.filter((s) => s.author !== 'agentboard').map((s) => [s.author, s.version, s.parentVersion, s.subgoals]));
      const again = agentboardJsonl([...(env === 'babyai' ? [builtin] : []), ...plan.store], () => hanoiDefaults);
      expect(again.ok && again.value).toBe(first.value);
    }
    // The problem's own id and goal: babyai-3's row, not the version number.
    const bobRow = agentboardRow(bob);
    expect(bobRow.ok && [bobRow.value.id, bobRow.value.goal]).toEqual([builtin.agentboard?.fields.id, builtin.agentboard?.fields.goal]);
    expect(problemIdOf('babyai', 'babyai-12')).toBe(12);
    expect(problemIdOf('os', 'std-007-bootstrap')).toBe('std-007-bootstrap');
  });

  it('an import never stores a row as AgentBoard\'s set by someone; an edited anonymous row becomes a new version', () => {
    const builtin = babyaiBuiltinSets(babyaiRowText)[3];
    const text = agentboardJsonl([builtin]);
    if (!text.ok) throw new Error(text.message);
    const edited = text.value.replace('"subgoals": [', '"subgoals": ["a new first pattern", ');
    const read = setsFromAgentBoardJsonl(text.value + edited, { subgoalText: 'pattern' });
    if (!read.ok) throw new Error(read.message);
    const plan = planAgentBoardImport(read.value, { env: 'babyai', task: builtin.task, builtin, author: 'bob', nextVersion: 4 });
    expect(plan.builtin).toBe(1);
    expect(plan.store.map((s) => [s.author, s.version, s.parentVersion, s.subgoals[0].label])).toEqual([['bob', 4, 1, 'a new first pattern']]);
    const other = planAgentBoardImport(read.value, { env: 'babyai', task: 'babyai-99', builtin: null, author: 'bob', nextVersion: 2 });
    expect(other).toMatchObject({ store: [], otherTasks: 2 });
    // A malformed authorship field is refused, not guessed.
    expect(setsFromAgentBoardJsonl(text.value.replace('}\n', ', "agentplay": {"author": ""}}\n'), { subgoalText: 'pattern' }).ok).toBe(false);
  });

  it('rows AgentBoard could not read are refused with a reason', () => {
    expect(setFromAgentBoardRow({ id: 1, task: 'babyai' }, { subgoalText: 'pattern' })).toMatchObject({ ok: false });
    expect(setFromAgentBoardRow({ id: 1, task: 'babyai', subgoals: ['a'], subgoals_1: ['a', 'b'] }, { subgoalText: 'pattern' })).toMatchObject({ ok: false, message: expect.stringContaining('differ in length') });
    expect(setsFromAgentBoardJsonl('{"id": 1, "task": "babyai", "subgoals": ["a"]}\n[1]', { subgoalText: 'pattern' })).toMatchObject({ ok: false, message: expect.stringMatching(/^line 2/) });
  });
});
