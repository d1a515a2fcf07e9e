/**
 * AgentBench's OS test set (what its published OS scores use, "os-std"): 144 tasks in 16 files
 * under upstream's `data/os_interaction/data/1..7/`, with the shell scripts they name
 * (data/test.json, built by data/build-data.ts). Ids `os-test-<group>-<file>-NN` keep upstream's
 * grouping; names follow upstream's sample index (`std-00<group>-<file>-NNNNN`, as the dev set's
 * `dev-001-dev-NNNNN`).
 */
import testData from './data/test.json';
import { TaskProblem, loadTask } from './loader.ts';
import { NAMED_CHECKS, oracleOf, titleOf, type OsTask } from './tasks.ts';
import { TEST_NOTES } from './testnotes.ts';

interface TestFile {
  group: number;
  path: string;
  tasks: unknown[];
}

const data = testData as { files: TestFile[]; scripts: Record<string, string> };

function toTask(file: TestFile, raw: unknown, index: number): OsTask {
  const stem = file.path.slice(file.path.lastIndexOf('/') + 1).replace(/\.json$/, '');
  const id = `os-test-${file.group}-${stem}-${String(index).padStart(2, '0')}`;
  const base = {
    id,
    name: `std-${String(file.group).padStart(3, '0')}-${stem}-${String(index).padStart(5, '0')}`,
    index,
    split: 'test' as const,
    source: file.path,
  };
  const resolveFile = (path: string) => data.scripts[`scripts/${file.group}/${path}`];
  const extra = TEST_NOTES[id];
  try {
    const loaded = loadTask(raw, { resolveFile, namedChecks: NAMED_CHECKS });
    const oracle = oracleOf(loaded);
    return {
      ...base,
      tags: loaded.labels,
      description: loaded.description,
      title: titleOf(loaded.description),
      labels: loaded.labels,
      image: loaded.image,
      init: loaded.init,
      start: loaded.start,
      evaluation: loaded.evaluation,
      runnable: extra?.runnable ?? true,
      note: extra?.note ?? 'Runs as upstream.',
      oracleScript: oracle.oracleScript,
      oracleFinishes: oracle.oracleFinishes,
    };
  } catch (err) {
    if (!(err instanceof TaskProblem)) throw err;
    // A built-in task always loads; what cannot run is said in its note.
    const description = typeof (raw as { description?: unknown }).description === 'string' ? (raw as { description: string }).description : id;
    return {
      ...base,
      description,
      title: titleOf(description),
      labels: [],
      image: 'default',
      init: [],
      start: null,
      evaluation: { kind: 'match', answer: '', strip: true },
      runnable: false,
      note: `Cannot run here: ${err.field ? `${err.field}: ` : ''}${err.message}`,
      oracleScript: 'true',
      oracleFinishes: true,
    };
  }
}

export const OS_TEST_TASKS: readonly OsTask[] = data.files.flatMap((file) => file.tasks.map((raw, i) => toTask(file, raw, i)));
