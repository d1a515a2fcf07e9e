/**
 * Lasting marks on stored episodes that failed verification on import (issue 29 §5): the
 * replay diverged from the record, so its score is not to be trusted. Kept in this browser's
 * localStorage by episode id (a few bytes each) and shown by the episodes list and the replay.
 */
const KEY = 'agentplay.verification-failed';

/** Episode id → why verification failed. */
export function failedVerifications(): Record<string, string> {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Record the outcome of verifying episodes: failures are marked, a later pass clears the mark. */
export function recordVerifications(results: readonly { id: string; failed: string | null }[]): void {
  const marks = failedVerifications();
  for (const r of results) {
    if (r.failed) marks[r.id] = r.failed;
    else delete marks[r.id];
  }
  localStorage.setItem(KEY, JSON.stringify(marks));
}
