/**
 * Regenerates the JSON data modules in this folder from verbatim copies of the upstream
 * files README.md here lists (repository, commit, path), under FOLDER/agentboard/.
 *
 *   npx tsx envs/pddl/data/build-data.ts [FOLDER]   (default: the team's copy beside the checkout)
 *
 * Outputs (all JSON, importable by vite and tsx with a plain `import`):
 *   domains.json                 { gripper, blockworld, barman, tyreworld }: PDDL domain text
 *   problems.json                [{ domain, file, pddl }] in AgentBoard's order (ids 0..59)
 *   agentboard-pddl-test.json    the 60 rows of data/pddl/test.jsonl (GPL-2.0 data, kept apart)
 *   pddl_vanilla_prompt.json     AgentBoard's VanillaAgent prompt per domain
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const shared = process.argv[2] ?? fileURLToPath(new URL('../../../../shared/data/', import.meta.url));
const source = join(shared, 'agentboard');

// AgentBoard's game list order (../README.md, Upstream: gripper, blockworld, barman, tyreworld).
const DOMAINS = ['gripper', 'blockworld', 'barman', 'tyreworld'] as const;

function write(name: string, value: unknown): void {
  writeFileSync(join(here, name), JSON.stringify(value, null, 1) + '\n');
  console.log(`wrote ${name}`);
}

const domains: Record<string, string> = {};
const problems: { domain: string; file: string; pddl: string }[] = [];
for (const domain of DOMAINS) {
  domains[domain] = readFileSync(join(source, 'pddl', `${domain}.pddl`), 'utf8');
  // pddlgym sorts the problem paths as strings: problem1, problem10, problem2, ... (../README.md, Upstream).
  const files = readdirSync(join(source, 'pddl', domain))
    .filter((f) => f.endsWith('.pddl'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const file of files) problems.push({ domain, file, pddl: readFileSync(join(source, 'pddl', domain, file), 'utf8') });
}
if (problems.length !== 60) throw new Error(`expected 60 problems, found ${problems.length}`);

const rows = readFileSync(join(source, 'data', 'pddl', 'test.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));
if (rows.length !== 60) throw new Error(`expected 60 test.jsonl rows, found ${rows.length}`);

const prompt = JSON.parse(readFileSync(join(source, 'prompts', 'pddl_vanilla_prompt.json'), 'utf8'));

write('domains.json', domains);
write('problems.json', problems);
write('agentboard-pddl-test.json', rows);
write('pddl_vanilla_prompt.json', prompt);
