/**
 * The 60 AgentBoard PDDL problems (README.md, Upstream): task list in AgentBoard's
 * order and the parsed, compiled form of each, built once on first use.
 */
import type { TaskInfo } from '../core/types.ts';
import { Grounder } from './grounding.ts';
import { parseDomain, parseProblem, type Domain } from './parser.ts';
import domainTexts from './data/domains.json';
import problemFiles from './data/problems.json';
import testRows from './data/agentboard-pddl-test.json';

export type DomainName = 'gripper' | 'blockworld' | 'barman' | 'tyreworld';

/** AgentBoard's game list order. */
export const DOMAINS: readonly DomainName[] = ['gripper', 'blockworld', 'barman', 'tyreworld'];

/** barman and tyreworld show only the facts a step added, and list "look around" among the help actions. */
export const DIFF_DOMAINS: ReadonlySet<DomainName> = new Set(['barman', 'tyreworld']);

export interface PddlTask extends TaskInfo {
  /** 0..59, AgentBoard's problem id (test.jsonl `id`). */
  index: number;
  domain: DomainName;
  /** Problem file name, e.g. `prob01.pddl`. */
  file: string;
  difficulty: 'easy' | 'hard';
}

/** One row of AgentBoard's data/pddl/test.jsonl. */
export interface TestRow {
  id: number;
  task: string;
  goal: string;
  subgoals: string[];
  difficulty: string;
  additional_info: { subtask: string };
}

export const TEST_ROWS: readonly TestRow[] = testRows as TestRow[];

const FILES = problemFiles as { domain: DomainName; file: string; pddl: string }[];

export const TASKS: readonly PddlTask[] = FILES.map((p, index) => ({
  id: `pddl-${index}`,
  name: `${p.domain}/${p.file.replace(/\.pddl$/, '')}`,
  index,
  domain: p.domain,
  file: p.file,
  difficulty: TEST_ROWS[index].difficulty === 'hard' ? 'hard' : 'easy',
  // AgentBoard spells the domain "blockworld"; the planning literature (and our summary) "blocksworld".
  ...(p.domain === 'blockworld' ? { keywords: ['blocksworld', 'blocks world'] } : {}),
}));

const domains = new Map<DomainName, Domain>();
const grounders: (Grounder | undefined)[] = [];

export function domainOf(name: DomainName): Domain {
  let d = domains.get(name);
  if (!d) {
    d = parseDomain((domainTexts as Record<DomainName, string>)[name]);
    domains.set(name, d);
  }
  return d;
}

/** The compiled problem of task index i (parsed on first use, then cached). */
export function grounderOf(index: number): Grounder {
  let g = grounders[index];
  if (!g) {
    const file = FILES[index];
    const domain = domainOf(file.domain);
    g = new Grounder(domain, parseProblem(file.pddl, domain));
    grounders[index] = g;
  }
  return g;
}

export function problemText(index: number): string {
  return FILES[index].pddl;
}

export function domainText(name: DomainName): string {
  return (domainTexts as Record<DomainName, string>)[name];
}
