/**
 * Regenerates the data modules in this folder from the team's verbatim upstream copies
 * (../shared/data, see SOURCES.md there and README.md here):
 *
 *   npx tsx envs/alfworld/data/build-data.ts [FOLDER]   (default: the copy beside the checkout)
 *
 * Outputs:
 *   logic.json       the PDDL domain and the grammar every game shares, as shipped (ALFWorld 2.1.2's
 *                    patched wording); the grammar's task line is left as TASK_LINE (each game has its own);
 *                    `compiled`: both wordings read (games.ts compileLogic), so a page does not parse them
 *   games.json       the 134 games of valid_unseen sorted by path: path (relative to json_2.1.1/), task
 *                    line, walkthrough; AgentBench's lists (standard, dev) and AgentBoard's order as indices
 *   problems/NNN.json  each game's PDDL problem compiled (world.ts compileProblem: objects, sorted facts,
 *                    goal, demangled names), loaded when the game is played; the text's sha256 names its source;
 *                    `originalStart`: its welcome, first commands and goal check in the original wording
 *   prompts.json     AgentBench's one-shot examples (alfworld_multiturn_plan_first.json) and AgentBoard's
 *                    prompt file (alfworld_base.json)
 *
 * AgentBoard's order is TextWorld's: the sorted game files shuffled by numpy.random.RandomState(1234)
 * (textworld/gym/envs/textworld_batch.py seed()); it is computed here by numpy itself (python3 with numpy).
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { compileProblem, World, type CompiledProblem } from '../world.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const shared = process.argv[2] ?? fileURLToPath(new URL('../../../../shared/data/', import.meta.url));
const root = join(shared, 'alfworld', 'json_2.1.1');
const TASK_RE = /"rhs": "Your task is to: [^"]*"/;

const paths: string[] = [];
for (const task of readdirSync(join(root, 'valid_unseen')).sort()) {
  for (const trial of readdirSync(join(root, 'valid_unseen', task)).sort()) paths.push(`valid_unseen/${task}/${trial}/game.tw-pddl`);
}
paths.sort();
if (paths.length !== 134) throw new Error(`expected 134 games, found ${paths.length}`);

let domain = '';
let grammar = '';
const games: { path: string; task: string; walkthrough: string[] }[] = [];
const problems: (CompiledProblem & { source: string })[] = [];
const taskLines: string[] = [];
mkdirSync(join(here, 'problems'), { recursive: true });
paths.forEach((path, i) => {
  const data = JSON.parse(readFileSync(join(root, path), 'utf8'));
  const task = TASK_RE.exec(data.grammar)?.[0];
  if (!task) throw new Error(`${path}: no task line in its grammar`);
  const shape = data.grammar.replace(task, '"rhs": "TASK_LINE"');
  if (i === 0) [domain, grammar] = [data.pddl_domain, shape];
  else if (data.pddl_domain !== domain || shape !== grammar) throw new Error(`${path}: its domain or grammar differs from the first game's`);
  games.push({ path, task: JSON.parse(`{${task}}`).rhs, walkthrough: data.walkthrough });
  taskLines.push(task);
  const sha256 = createHash('sha256').update(data.pddl_problem).digest('hex');
  problems.push({ source: `${path} pddl_problem sha256 ${sha256}`, ...compileProblem(data.pddl_problem) });
});

const index = (list: string) => {
  const byPrefix = JSON.parse(readFileSync(join(shared, 'agentbench', 'alfworld', list), 'utf8')) as Record<string, string[]>;
  return Object.values(byPrefix)
    .flat()
    .map((p) => {
      const at = paths.indexOf(p.replace(/^json_2\.1\.1\//, ''));
      if (at < 0) throw new Error(`${list}: ${p} is not among the games`);
      return at;
    });
};

const py = spawnSync('python3', ['-c', 'import json,sys,numpy as np\nn=int(sys.argv[1]);l=list(range(n));np.random.RandomState(1234).shuffle(l);print(json.dumps(l))', String(paths.length)], { encoding: 'utf8' });
if (py.status !== 0) throw new Error(`python3 with numpy is needed for AgentBoard's order: ${py.stderr}`);
const agentboard = JSON.parse(py.stdout) as number[];

writeFileSync(join(here, 'games.json'), JSON.stringify({ games, standard: index('standard.json'), dev: index('dev.json'), agentboard }, null, 1) + '\n');
writeFileSync(join(here, 'logic.json'), JSON.stringify({ domain, grammar }) + '\n');
// compileLogic reads logic.json's text and grammarOf games.json (just written): import them after the writes.
const { compileLogic, originalDomain, originalGrammar } = await import('../games.ts');
writeFileSync(join(here, 'logic.json'), JSON.stringify({ domain, grammar, compiled: { original: compileLogic('original'), patched: compileLogic('patched') } }) + '\n');
// Each game's initial state in the original wording, worked out by the engine from the game's own texts.
problems.forEach((problem, i) => {
  const world = new World({ domain: originalDomain(domain), grammar: originalGrammar(grammar.replace('"rhs": "TASK_LINE"', taskLines[i])), problem });
  const originalStart = { intro: world.intro(world.initial), admissible: world.admissible(world.initial), won: world.won(world.initial) };
  writeFileSync(join(here, 'problems', `${String(i).padStart(3, '0')}.json`), JSON.stringify({ ...problem, originalStart }) + '\n');
});
const agentbench = JSON.parse(readFileSync(join(shared, 'agentbench', 'alfworld', 'prompts', 'alfworld_multiturn_plan_first.json'), 'utf8'));
const agentboardPrompt = JSON.parse(readFileSync(join(shared, 'agentboard', 'prompts', 'alfworld_base.json'), 'utf8'));
writeFileSync(join(here, 'prompts.json'), JSON.stringify({ agentbench, agentboard: agentboardPrompt }, null, 1) + '\n');
console.log(`wrote logic.json, games.json (${games.length} games), problems/ and prompts.json`);
