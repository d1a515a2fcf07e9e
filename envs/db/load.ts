/**
 * The DB environment, ready to play: in a browser (a page, or a worker such as the replay
 * verifier's: workers can start workers) each episode's sql.js runs in its own Web Worker, so
 * a runaway query is stopped by ending it; in Node, in-process unless the caller installs the
 * worker-thread executor (node.ts; the CLI does).
 */
import type { EnvDefinition } from '../core/types.ts';

const inBrowser = typeof Worker !== 'undefined' && !(typeof process !== 'undefined' && process.versions?.node);

export async function loadDb(): Promise<EnvDefinition> {
  const m = await import('./index.ts');
  if (inBrowser) {
    const { browserDbExecutorFactory, warmDbWorkers } = await import('./browser.ts');
    m.setDbExecutorFactory(browserDbExecutorFactory);
    // A page that loads the environment is likely to open an episode: its worker starts now.
    warmDbWorkers();
  }
  return m.db;
}
