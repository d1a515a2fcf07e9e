/**
 * Runs `run` once when the page is next idle: for work that readies an environment ahead of need
 * (a spare worker, a download) without delaying what the page is drawing. It runs after at most
 * `latestMs` even when the page never reports an idle moment: a headless or hidden page may draw no
 * frames, and Chromium then never calls requestIdleCallback (this failed the Linux prefetch in CI).
 */
export function whenPageIdle(run: () => void, latestMs = 1000): void {
  let ran = false;
  const once = () => {
    if (ran) return;
    ran = true;
    clearTimeout(timer);
    run();
  };
  const timer = setTimeout(once, latestMs);
  globalThis.requestIdleCallback?.(once, { timeout: latestMs });
}
