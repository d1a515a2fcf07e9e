/**
 * Marks on stored episodes from verifying them against a replay (issue 29 §5), kept on the
 * episode's header (`verification`, runtime/records.ts) so exports carry them: words for the
 * episodes list and the replay, and the move of the marks an earlier version kept in this
 * browser's localStorage onto the headers.
 */
import type { EpisodeHeader, Verification } from '../../runtime/records.ts';
import { describeVerdict, type Verdict } from '../../runtime/verify.ts';
import type { Store } from '../store/store.ts';

/** The mark a verdict leaves on its episode (verified, or failed with the divergence); none when it could not be replayed. */
export function verificationOf(v: Verdict, at: string = new Date().toISOString()): Verification | null {
  if (v.kind === 'error') return null;
  return v.kind === 'diverged' ? { result: 'failed', detail: describeVerdict(v), at } : { result: 'verified', at };
}

/** Why an episode failed verification (its replay differs from the record), or null. */
export function failedVerification(h: Pick<EpisodeHeader, 'verification'>): string | null {
  return h.verification?.result === 'failed' ? (h.verification.detail ?? 'its replay differs from the record') : null;
}

/** Why an episode was not verified on import, or null. */
export function skippedVerification(h: Pick<EpisodeHeader, 'verification'>): string | null {
  return h.verification?.result === 'skipped' ? (h.verification.detail ?? 'not verified on import') : null;
}

const OLD_KEY = 'agentplay.verification-failed';

/** Move marks kept in localStorage (episode id → why) onto the stored headers, once; ids no longer stored are dropped. */
export async function moveOldMarks(store: Store, headers: readonly EpisodeHeader[]): Promise<boolean> {
  const raw = localStorage.getItem(OLD_KEY);
  if (raw === null) return false;
  let marks: Record<string, unknown> = {};
  try {
    const v = JSON.parse(raw) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) marks = v as Record<string, unknown>;
  } catch {
    // unreadable: nothing to move
  }
  const at = new Date().toISOString();
  for (const h of headers) {
    const why = marks[h.id];
    if (typeof why === 'string' && !h.verification) await store.setVerification(h.id, { result: 'failed', detail: why, at });
  }
  localStorage.removeItem(OLD_KEY);
  return true;
}
