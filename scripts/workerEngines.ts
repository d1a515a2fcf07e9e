/**
 * The CLI's engines: the DB's sql.js and the OS's embedded shell in worker threads, so a
 * runaway statement or command is stopped from outside. Shared by the CLI and the
 * benchmarks that measure what the CLI does (bench-eval).
 */
export async function useWorkerEngines(): Promise<void> {
  const [{ setDbExecutorFactory }, { nodeWorkerExecutorFactory }, { setOsShellFactory }, { nodeGuardedShellFactory }] = await Promise.all([
    import('../envs/db/executor.ts'),
    import('../envs/db/node.ts'),
    import('../envs/os/index.ts'),
    import('../envs/os/embedded/node-worker.ts'),
  ]);
  setDbExecutorFactory(nodeWorkerExecutorFactory());
  setOsShellFactory(nodeGuardedShellFactory());
}

/** Back to the in-process engines (a benchmark that installed the CLI's ones, before the next one runs). */
export async function useInProcessEngines(): Promise<void> {
  const [{ setDbExecutorFactory }, { setOsShellFactory }] = await Promise.all([import('../envs/db/executor.ts'), import('../envs/os/index.ts')]);
  setDbExecutorFactory(null);
  setOsShellFactory(null);
}
