/**
 * A promise resolved in the next task, so input and painting come in between: the scores view
 * draws its tables, charts and long lists in slices with it. A message: not clamped to 4 ms as
 * nested setTimeouts are, and queued behind a frame that is due, unlike scheduler.yield, whose
 * continuations run first (slices then piled up undrawn, and their style, layout and paint came
 * as one task of 50–70 ms).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(null);
  });
}
