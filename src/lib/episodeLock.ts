/**
 * One tab drives an episode. Each open episode holds a Web Lock named after its id; a
 * second tab that opens the same episode finds the lock taken and shows it read-only.
 * Taking over asks the holder, over a BroadcastChannel, to stop and store what it has
 * played; the holder then lets go and the lock passes to the new tab, which resumes
 * from what is stored. A holder that does not answer in time has its lock stolen
 * (the Web Locks API tells it so). Without navigator.locks every tab drives on its
 * own, as before (the store still refuses interleaved steps).
 */

const CHANNEL = 'agentplay-episode-locks';
/** How long a holder has to store its last steps before the lock is stolen. */
export const TAKE_OVER_WAIT_MS = 3000;
/** How long a tab that found the episode held waits before asking once more. */
const TRY_AGAIN_MS = 300;

export interface EpisodeLock {
  /** Let go of the episode (leaving it, or after handing it over). */
  release(): void;
}

export interface LockHooks {
  /**
   * Another tab took the episode over: stop playing and store what is left. The lock is
   * released once this resolves (at once if the lock was stolen without asking).
   */
  onTakenOver(): Promise<void> | void;
}

interface TakeOverMessage {
  type: 'take-over';
  episodeId: string;
}

const lockName = (episodeId: string): string => `agentplay-episode:${episodeId}`;

function locksApi(): LockManager | undefined {
  return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : undefined;
}

function channel(): BroadcastChannel | undefined {
  return typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(CHANNEL);
}

/**
 * Hold the episode: 'try' gives null when another tab holds it; 'take' asks that tab to hand it
 * over (stealing it after TAKE_OVER_WAIT_MS) and resolves once this tab holds it.
 */
export function holdEpisode(episodeId: string, mode: 'try' | 'take', hooks: LockHooks): Promise<EpisodeLock | null> {
  const locks = locksApi();
  if (!locks) return Promise.resolve({ release() {} });
  const name = lockName(episodeId);
  let letGo!: () => void;
  const holding = new Promise<void>((resolve) => (letGo = resolve));
  let listener: BroadcastChannel | undefined;
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    listener?.close();
    letGo();
  };
  const takenOver = async (): Promise<void> => {
    if (released) return;
    try {
      await hooks.onTakenOver();
    } finally {
      release();
    }
  };

  return new Promise<EpisodeLock | null>((resolve, reject) => {
    const granted = (lock: Lock | null): Promise<void> | undefined => {
      if (!lock) {
        resolve(null);
        return undefined;
      }
      listener = channel();
      listener?.addEventListener('message', (event: MessageEvent<TakeOverMessage>) => {
        if (event.data?.type === 'take-over' && event.data.episodeId === episodeId) void takenOver();
      });
      resolve({ release });
      return holding;
    };
    // A lock stolen from this tab rejects its request: the other tab has the episode now.
    const lost = (err: unknown): void => {
      if (err instanceof DOMException && err.name === 'AbortError' && !released) void takenOver();
    };
    if (mode === 'try') {
      // A reloaded tab's old document may still be letting go of the lock: ask once more before saying no.
      let retried = false;
      const attempt = (): void => {
        locks
          .request(name, { ifAvailable: true }, (lock) => {
            if (lock || retried) return granted(lock);
            retried = true;
            setTimeout(attempt, TRY_AGAIN_MS);
            return undefined;
          })
          .catch(lost);
      };
      attempt();
      return;
    }
    const ask = channel();
    ask?.postMessage({ type: 'take-over', episodeId } satisfies TakeOverMessage);
    ask?.close();
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), TAKE_OVER_WAIT_MS);
    locks
      .request(name, { signal: timeout.signal }, (lock) => {
        clearTimeout(timer);
        return granted(lock);
      })
      .catch((err: unknown) => {
        if (!timeout.signal.aborted) return lost(err);
        // The holder did not let go in time (frozen, or an old build): take the lock anyway.
        locks.request(name, { steal: true }, granted).catch(lost);
      })
      .catch(reject);
  });
}
