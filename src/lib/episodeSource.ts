/**
 * Where the replay views get episodes: the browser's own store (IndexedDB), or a
 * read-only set held in memory (a share link's episode, the demo build's bundled ones).
 * In read-only mode the store is never opened, so nothing is written to IndexedDB.
 */
import type { EpisodeHeader, EpisodeRecord, Verification } from '../../runtime/records.ts';
import { getStore } from './storeInstance.ts';
import { parseJsonl } from '../../runtime/jsonl.ts';

const readOnly = new Map<string, EpisodeRecord>();

/** The demo build bundles its episodes and never touches IndexedDB. */
export const DEMO = import.meta.env.VITE_DEMO === '1';

export function addReadOnly(records: readonly EpisodeRecord[]): void {
  for (const r of records) readOnly.set(r.header.id, r);
}

export function isReadOnly(id: string): boolean {
  return readOnly.has(id);
}

export async function getRecord(id: string): Promise<EpisodeRecord | undefined> {
  if (DEMO) await loadDemoEpisodes();
  const held = readOnly.get(id);
  if (held || DEMO) return held;
  return (await getStore()).getEpisode(id);
}

/**
 * Keeps a verification mark on a stored episode's header (a replay's own Verify): not on a
 * read-only one (a share link's, the demo's), whose source is not this browser's to change.
 * Says whether it was kept.
 */
export async function keepVerification(id: string, mark: Verification): Promise<boolean> {
  if (DEMO || readOnly.has(id)) return false;
  await (await getStore()).setVerification(id, mark);
  return true;
}

/** Headers of every episode the views can show (read-only ones, or in the app the store's). */
export async function listHeaders(): Promise<EpisodeHeader[]> {
  if (DEMO) {
    await loadDemoEpisodes();
    return [...readOnly.values()].map((r) => r.header);
  }
  return (await getStore()).listEpisodes();
}

let demoLoad: Promise<void> | null = null;
/** The demo build's bundled episodes (demo-episodes.jsonl beside index.html, fetched by a relative path). */
export function loadDemoEpisodes(): Promise<void> {
  demoLoad ??= (async () => {
    const response = await fetch('./demo-episodes.jsonl');
    if (!response.ok) throw new Error(`The demo's episodes could not be loaded (HTTP ${response.status}).`);
    addReadOnly(parseJsonl(await response.text()));
  })();
  return demoLoad;
}
