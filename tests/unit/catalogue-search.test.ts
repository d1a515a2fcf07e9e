/**
 * The catalogue's rows (src/lib/catalogueSearch.ts): a task whose upstream name is only an index
 * (AgentBench OS) is listed by its title, and the description under it does not repeat it.
 */
import { describe, expect, it } from 'vitest';
import { entries, loadEnv } from '../../envs/index.ts';
import { detailBeyond, matches, taskRows } from '../../src/lib/catalogueSearch.ts';

const rowsOf = async (id: string) => taskRows(entries().find((e) => e.id === id)!, await loadEnv(id));

describe('catalogue rows', () => {
  it('an OS test task is titled by its description, not its upstream index; the detail goes on where the title stops', async () => {
    const row = (await rowsOf('os')).find((r) => r.id === 'os-test-7-bootstrap-87')!;
    expect(row.name).toBe('std-007-bootstrap-00087');
    expect(row.title).toMatch(/^In this problem, you need to analyze the file system usage \(in kilobytes\) in a Linux…$/);
    expect(row.detail).toMatch(/^…operating system\. You will be given/);
    expect(matches(row, 'kilobytes std-007')).toBe(true);
  });

  it('a task with a real name keeps it, and its whole description', async () => {
    const row = (await rowsOf('rps')).find((r) => r.id === 'rps-basic')!;
    expect(row.title).toBe('RockPaperScissorBasic-v0');
    expect(row.detail).toBe(row.description);
  });

  it('detailBeyond: nothing left when the title is the whole description; the rest of the lines otherwise', () => {
    expect(detailBeyond('How many files?', 'How many files?')).toBe('');
    expect(detailBeyond('Print 1.', 'Print 1.\nThen stop.')).toBe('Then stop.');
    expect(detailBeyond('Other title', 'A description')).toBe('A description');
    expect(detailBeyond('Count the…', '"Count the files in /root."')).toBe('…files in /root."');
    expect(detailBeyond('Given text files…', 'Given text files. These are logs.')).toBe('…These are logs.');
  });

  it('search: "blocksworld" finds the blockworld problems (and only them); "std" starts words only, so no BabyAI level', async () => {
    const pddl = await rowsOf('pddl');
    const found = pddl.filter((r) => matches(r, 'blocksworld'));
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((r) => r.name.startsWith('blockworld/'))).toBe(true);
    expect(found.length).toBe(pddl.filter((r) => r.name.startsWith('blockworld/')).length);
    const babyai = await rowsOf('babyai');
    expect(babyai.some((r) => /PickupDistDebug/.test(r.name))).toBe(true);
    expect(babyai.filter((r) => matches(r, 'std'))).toEqual([]);
    expect(babyai.filter((r) => matches(r, 'dist')).some((r) => /PickupDistDebug/.test(r.name))).toBe(true);
    const os = await rowsOf('os');
    expect(os.filter((r) => matches(r, 'std')).length).toBeGreaterThan(100);
    // Inside a word is not a match; at a digit after letters it is.
    expect(matches({ ...os[0], id: 'x', name: 'problem10', title: 'problem10', description: 'understand', keywords: [] }, 'stand')).toBe(false);
    expect(matches({ ...os[0], id: 'x', name: 'problem10', title: 'problem10', description: 'understand', keywords: [] }, '10')).toBe(true);
  });

  it("OS topics are tags of their own, not difficulties; a topic finds its tasks by search too", async () => {
    const os = await rowsOf('os');
    expect(os.every((r) => r.difficulty === undefined)).toBe(true);
    const tagged = os.filter((r) => r.tags.includes('permission'));
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.every((r) => matches(r, 'permission'))).toBe(true);
    const difficulties = new Set((await Promise.all(['babyai', 'pddl', 'messenger', 'os'].map(rowsOf))).flat().map((r) => r.difficulty).filter(Boolean));
    expect([...difficulties].sort()).toEqual(['easy', 'hard', 'level 1', 'level 2', 'level 3']);
  });
});

