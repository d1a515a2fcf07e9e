/**
 * Copies AgentBench's OS-interaction data into this folder as JSON modules.
 *
 *   npx tsx envs/os/data/build-data.ts [FOLDER]
 *
 * FOLDER/agentbench/os_interaction/ holds upstream's data/os_interaction/ files (README.md here: repository,
 * commit, licence); the default is the team's copy beside the checkout.
 *
 * dev.json is copied unchanged (parsed only to check it is the 26-task list the environment
 * expects). test.json bundles the test set: each upstream file `data/N/*.json` with its tasks
 * exactly as upstream has them, and the text of every shell script those tasks name under
 * `scripts/N/` (upstream's python check scripts are code and are not copied: checks.ts has
 * their behaviour). See README.md here for source and licence.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const shared = process.argv[2] ?? fileURLToPath(new URL('../../../../shared/data/', import.meta.url));
const root = join(shared, 'agentbench', 'os_interaction');

const devText = readFileSync(join(root, 'dev.json'), 'utf8');
const dev: unknown = JSON.parse(devText);
if (!Array.isArray(dev) || dev.length !== 26) throw new Error('expected a JSON list of 26 dev tasks');
writeFileSync(join(here, 'dev.json'), devText);
console.log(`wrote dev.json (${dev.length} tasks, ${devText.length} bytes)`);

/** Every `{"file": ...}` a task names, wherever it is. */
function namedFiles(value: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => namedFiles(v, out));
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.file === 'string') out.add(record.file);
    Object.values(record).forEach((v) => namedFiles(v, out));
  }
  return out;
}

const files: { group: number; path: string; tasks: unknown[] }[] = [];
const scripts: Record<string, string> = {};
for (const group of [1, 2, 3, 4, 5, 6, 7]) {
  for (const name of readdirSync(join(root, 'test', 'data', String(group))).filter((n) => n.endsWith('.json')).sort()) {
    const data: unknown = JSON.parse(readFileSync(join(root, 'test', 'data', String(group), name), 'utf8'));
    // Upstream's loader takes a file holding one task object as a list of one.
    const tasks = Array.isArray(data) ? data : [data];
    files.push({ group, path: `data/${group}/${name}`, tasks });
    for (const file of namedFiles(tasks, new Set())) {
      if (file.endsWith('.py')) continue;
      scripts[`scripts/${group}/${file}`] = readFileSync(join(root, 'test', 'scripts', String(group), file), 'utf8');
    }
  }
}
const total = files.reduce((n, f) => n + f.tasks.length, 0);
if (total !== 144) throw new Error(`expected 144 test tasks, found ${total}`);
const text = `${JSON.stringify({ files, scripts }, null, 1)}\n`;
writeFileSync(join(here, 'test.json'), text);
console.log(`wrote test.json (${files.length} files, ${total} tasks, ${Object.keys(scripts).length} scripts, ${text.length} bytes)`);
