/**
 * The observation Node's embedded shell gives for one OS action after a reset (for browser tests
 * that compare the browser build with Node): `tsx tests/support/os-step.ts TASK SEED` with the
 * action on stdin; prints the observation as JSON.
 */
import { readFileSync } from 'node:fs';
import { os, OS_TASKS } from '../../envs/os/index.ts';

const [taskId, seed] = process.argv.slice(2);
const task = OS_TASKS.find((t) => t.id === taskId);
if (!task) throw new Error(`no OS dev task ${taskId}`);
const { state } = await os.reset(task, Number(seed));
const step = await os.step(state, readFileSync(0, 'utf8'));
os.dispose?.(state);
process.stdout.write(JSON.stringify(step.observation));
process.exit(0);
