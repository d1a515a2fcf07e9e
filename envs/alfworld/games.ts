/**
 * The games and the task lists (README.md): ALFWorld's 134 valid_unseen games, played
 *   - by AgentBench's House-Holding as `alfworld-std-NN` (its standard list, 50, the published
 *     test set) and `alfworld-dev-NN` (its dev list, 20), in the lists' order;
 *   - by AgentBoard's ALFWorld as `alfworld-NNN` (all 134, in TextWorld's order: the sorted files
 *     shuffled by numpy's RandomState(1234), data/build-data.ts).
 * Each game is the shared domain and grammar (data/logic.json, stored read) with its own task line and PDDL
 * problem, compiled (data/problems/NNN.json, loaded when the game is first played).
 */
import type { TaskInfo } from '../core/types.ts';
import gameList from './data/games.json';
import logic from './data/logic.json';
import { World, type CompiledProblem } from './world.ts';
import { parseAlfDomain, type AlfAction, type AlfDomain } from './pddl.ts';
import { parseSymbols, parseTwl2, type ActionText, type GameGrammar, type GrammarRule } from './grammar.ts';

export type Protocol = 'agentbench' | 'agentboard';
/** The grammar a game is played with: the original (what both benchmarks ran: "put X in/on Y") or ALFWorld 2.1.2's patched one ("move X to Y", help). */
export type Wording = 'original' | 'patched';

export interface GameEntry {
  /** Path relative to json_2.1.1/. */
  path: string;
  /** The grammar's task line, e.g. "Your task is to: put some pencil on shelf.". */
  task: string;
  walkthrough: string[];
}

export interface AlfTask extends TaskInfo {
  /** Index into GAMES. */
  game: number;
  protocol: Protocol;
  /** The game's task type (the folder's prefix), e.g. pick_and_place_simple. */
  type: string;
}

const LIST = gameList as { games: GameEntry[]; standard: number[]; dev: number[]; agentboard: number[] };
export const GAMES: readonly GameEntry[] = LIST.games;

/** AgentBench's step limit (configs/tasks/alfworld.yaml at 41e6807: max_step 35). */
export const AGENTBENCH_MAX_STEPS = 35;
/** AgentBoard's step limit (tasks/alfworld.py max_num_steps 30). */
export const AGENTBOARD_MAX_STEPS = 30;

const typeOf = (path: string) => path.split('/')[1].split('-')[0];
const goalOf = (g: GameEntry) => g.task.replace(/^Your task is to: /, '');
const pad = (n: number, w: number) => String(n).padStart(w, '0');

function task(game: number, id: string, protocol: Protocol, split: string, suite: string): AlfTask {
  const g = GAMES[game];
  const type = typeOf(g.path);
  // name: the game file as both benchmarks' lists name it (relative to json_2.1.1/); title: its goal, for lists.
  return { id, name: g.path, title: goalOf(g), game, protocol, type, split, suite, description: goalOf(g) };
}

export const TASKS: readonly AlfTask[] = [
  ...LIST.standard.map((g, i) => task(g, `alfworld-std-${pad(i, 2)}`, 'agentbench', 'test', 'agentbench')),
  ...LIST.dev.map((g, i) => task(g, `alfworld-dev-${pad(i, 2)}`, 'agentbench', 'dev', 'agentbench')),
  ...LIST.agentboard.map((g, i) => task(g, `alfworld-${pad(i, 3)}`, 'agentboard', 'test', 'agentboard')),
];

/** The original grammar, as the patch (alfworld scripts/patch_tw-pddl.py) found it: its three replacements reversed, its help action removed. */
export function originalGrammar(patched: string): string {
  const at = patched.indexOf('\naction help {');
  const base = at >= 0 ? patched.slice(0, at) : patched;
  return base
    .replace('You arrive at {r.name}.', 'You arrive at {lend.name}.')
    .split('move {o} to {r}')
    .join('put {o} in/on {r}')
    .replace('You move the {o.name} to the {r.name}.', 'You put the {o.name} in/on the {r.name}.');
}

/** The original domain: the patch's help action taken out. */
export function originalDomain(patched: string): string {
  return patched.replace(/\(:action help\n[\s\S]*?\n\)\n(?=\)\s*$)/, '');
}

/**
 * The worlds of the games played last, most recent last: a world's caches (its initial state's
 * views and ground actions, its command texts) hold about 0.5 MB, and a page that plays all 134
 * games (a batch, the bench) kept them all, so garbage collection walked a 60 MB heap mid-step.
 * Two are kept (a reset of the same game, or going back to the previous one, finds its world): with
 * eight, each world lived long enough to be promoted to V8's old space with all its caches, so
 * every minor collection of a batch copied several games' caches.
 */
const worlds = new Map<string, World>();
const WORLDS_KEPT = 2;
const problems = new Map<number, CompiledProblem>();

/** Loads a game's PDDL problem, compiled (once). */
export async function loadProblem(game: number): Promise<CompiledProblem> {
  let p = problems.get(game);
  if (p === undefined) {
    const mod = (await import(`./data/problems/${pad(game, 3)}.json`)) as { default: CompiledProblem };
    p = mod.default;
    problems.set(game, p);
  }
  return p;
}

/** The shared domain and grammar of a wording as data (Maps as entry lists), as data/logic.json stores them. */
export interface CompiledLogic {
  domain: { types: [string, string | null][]; actions: AlfAction[] };
  grammar: { actions: [string, ActionText][]; rules: [string, GrammarRule[]][] };
}

/** Reads the shared domain and grammar of a wording from their text (data/build-data.ts stores the result in logic.json). */
export function compileLogic(wording: Wording): CompiledLogic {
  const domain = parseAlfDomain(wording === 'patched' ? logic.domain : originalDomain(logic.domain));
  const grammar = parseTwl2(wording === 'patched' ? logic.grammar : originalGrammar(logic.grammar));
  return {
    domain: { types: [...domain.types], actions: domain.actions },
    grammar: { actions: [...grammar.actions], rules: [...grammar.rules] },
  };
}

const shared = new Map<Wording, { domain: AlfDomain; grammar: GameGrammar }>();

/** The domain and grammar every game shares in a wording, from their stored compiled form (a game's own task line is set per game). */
export function sharedLogic(wording: Wording): { domain: AlfDomain; grammar: GameGrammar } {
  let l = shared.get(wording);
  if (!l) {
    const c = (logic as unknown as { compiled: Record<Wording, CompiledLogic> }).compiled[wording];
    l = {
      domain: { types: new Map(c.domain.types), actions: c.domain.actions },
      grammar: { actions: new Map(c.grammar.actions), rules: new Map(c.grammar.rules) },
    };
    shared.set(wording, l);
  }
  return l;
}

/** The game's grammar: the shared one with the game's task line as its "task" rule (the only line that differs, data/build-data.ts). */
export function grammarOf(game: number, wording: Wording): GameGrammar {
  const base = sharedLogic(wording).grammar;
  const rules = new Map(base.rules);
  rules.set('task', [{ rhs: parseSymbols(GAMES[game].task), condition: '' }]);
  return { actions: base.actions, rules };
}

/** The game's world with the given wording; its problem must have been loaded (loadProblem). */
export function worldOf(game: number, wording: Wording): World {
  const key = `${game}:${wording}`;
  let w = worlds.get(key);
  if (w) worlds.delete(key);
  else {
    const problem = problems.get(game);
    if (problem === undefined) throw new Error(`ALFWorld game ${game} is not loaded yet.`);
    const start = wording === 'original' ? problem.originalStart : undefined;
    w = new World({ domain: sharedLogic(wording).domain, grammar: grammarOf(game, wording), problem, start });
  }
  worlds.set(key, w);
  if (worlds.size > WORLDS_KEPT) worlds.delete(worlds.keys().next().value!);
  return w;
}

/** The walkthrough in a wording ("move X to Y" becomes "put X in/on Y" in the original). */
export function walkthroughOf(game: number, wording: Wording): string[] {
  const steps = GAMES[game].walkthrough;
  return wording === 'patched' ? steps : steps.map((s) => s.replace(/^move (.+) to (.+)$/, 'put $1 in/on $2'));
}
