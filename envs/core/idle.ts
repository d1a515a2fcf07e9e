/**
 * Runs `run` when the page is next idle (a timer's turn where requestIdleCallback is missing): for
 * work that readies an environment ahead of need (a spare worker, a download) without delaying
 * what the page is drawing.
 */
export function whenPageIdle(run: () => void): void {
  const schedule = globalThis.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 0));
  schedule(() => run());
}
