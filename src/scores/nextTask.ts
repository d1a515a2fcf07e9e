/**
 * A promise resolved in the next task, so input and painting come in between: the scores view
 * draws its tables and charts in slices with it. scheduler.yield where there is one; else a
 * message (not clamped to 4 ms as nested setTimeouts are).
 */
export function nextTask(): Promise<void> {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (s?.yield) return s.yield();
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(null);
  });
}
