/**
 * What the browser tells the clock: the tab hidden or shown (Page Visibility), the
 * page going away (pagehide: a `reload` pause), inactivity past the study's threshold (an idle pause
 * from threshold to the next input), and the screening signals a researcher uses:
 * pastes into the action box, tab hides, and window size changes that look like
 * developer tools opening (outer minus inner size beyond 160 px).
 */
import type { EpisodeClock } from './clock.ts';

const ACTIVITY = ['keydown', 'pointerdown', 'pointermove', 'wheel', 'touchstart'] as const;
const DEVTOOLS_GAP = 160;

export function watchClock(clock: EpisodeClock, options: { idleMs: number; tickMs?: number }): () => void {
  let lastActivity = Date.now();
  const wasDevtoolsSized = (): boolean => Math.max(window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight) > DEVTOOLS_GAP;
  let devtools = wasDevtoolsSized();

  const onVisibility = (): void => {
    if (document.visibilityState === 'hidden') {
      clock.pause('hidden');
      clock.signal('hidden');
    } else {
      clock.resume('hidden');
      lastActivity = Date.now();
    }
  };
  // The page going away (reload, closed tab) opens a `reload` pause; the next page's clock closes it once the task shows.
  const onPageHide = (): void => clock.pause('reload');
  // Back from the back/forward cache: the same page, shown again at once.
  const onPageShow = (event: PageTransitionEvent): void => {
    if (event.persisted) clock.shown();
  };
  const onActivity = (): void => {
    lastActivity = Date.now();
    if (clock.isPaused('idle')) clock.resume('idle', lastActivity);
  };
  const onPaste = (event: ClipboardEvent): void => {
    const target = event.target as HTMLElement | null;
    if (!target?.closest?.('#free-action, [aria-label="Your action"]')) return;
    const text = event.clipboardData?.getData('text') ?? '';
    clock.signal('paste', `${text.length} characters`);
  };
  const onResize = (): void => {
    const now = wasDevtoolsSized();
    if (now && !devtools) clock.signal('devtools-resize', `inner ${window.innerWidth}×${window.innerHeight}, outer ${window.outerWidth}×${window.outerHeight}`);
    devtools = now;
  };
  const tick = setInterval(() => {
    const now = Date.now();
    if (document.visibilityState === 'visible') clock.alive();
    // Idleness counts from the end of any other pause (a reload's loading, Pause, a hidden tab), never back into it.
    if (clock.isPaused() && !clock.isPaused('idle')) lastActivity = now;
    else if (!clock.isPaused() && now - lastActivity > options.idleMs) clock.pause('idle', lastActivity + options.idleMs);
  }, options.tickMs ?? 250);

  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pagehide', onPageHide);
  window.addEventListener('pageshow', onPageShow);
  for (const e of ACTIVITY) window.addEventListener(e, onActivity, { passive: true, capture: true });
  document.addEventListener('paste', onPaste, true);
  window.addEventListener('resize', onResize);
  if (document.visibilityState === 'hidden') onVisibility();

  return () => {
    clearInterval(tick);
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('pagehide', onPageHide);
    window.removeEventListener('pageshow', onPageShow);
    for (const e of ACTIVITY) window.removeEventListener(e, onActivity, { capture: true });
    document.removeEventListener('paste', onPaste, true);
    window.removeEventListener('resize', onResize);
  };
}
