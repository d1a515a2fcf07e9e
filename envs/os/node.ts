/**
 * The OS environment's Node side (CLI, benchmarks; never the app): which shell new episodes of the
 * shared `os` environment get. The embedded shell, on the calling thread or (workers on, the
 * CLI's choice) in a guarded worker thread; or real Linux in the v86 emulator from the image
 * `npm run os:image` builds.
 */
import type { EnvNode } from '../core/envNode.ts';
import { setOsShellFactory } from './index.ts';
import { SLOW_TEST_TASKS } from './resetTimes.ts';

let backend = 'embedded';
let workers = false;

async function install(): Promise<void> {
  if (backend === 'linux') {
    const { linuxShellFactory } = await import('./linux/node.ts');
    setOsShellFactory(linuxShellFactory);
  } else if (workers) {
    const { nodeGuardedShellFactory } = await import('./embedded/node-worker.ts');
    setOsShellFactory(nodeGuardedShellFactory());
  } else setOsShellFactory(null);
}

export const node: EnvNode = {
  async useBackend(id) {
    if (id === 'webcontainer') throw new Error('webcontainer runs in the browser only: embedded or linux here.');
    if (id === 'linux') {
      const { linuxImagePresent, IMAGE_DIR } = await import('./linux/node.ts');
      if (!linuxImagePresent()) throw new Error(`linux needs the Linux image and its saved state in ${IMAGE_DIR}: run \`npm run os:image\` (root and Debian/Ubuntu apt).`);
    } else if (id !== 'embedded') throw new Error(`There is no shell "${id}".`);
    backend = id;
    await install();
  },
  async useWorkers(on) {
    workers = on;
    await install();
  },
  runaway: () => import('./runaway.ts').then((m) => m.runaway),
  // A task whose init takes a few ms (the worker's start alone), then the test set's slowest inits.
  links: { tasks: ['os-dev-06', ...SLOW_TEST_TASKS], action: (word) => `Act: bash\n\n\`\`\`bash\necho ${word}\n\`\`\`` },
};
