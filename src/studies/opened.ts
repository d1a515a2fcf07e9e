/**
 * The studies opened in this browser (kept in IndexedDB's settings), so the Studies
 * page can list them beside the ones served with the app: each with the address
 * part that opens it again (`#/study/NAME` or `#/study/x?src=URL`).
 */
import { getSetting, putSetting } from './studyDb.ts';

export interface OpenedStudy {
  /** The address after the page's own: `#/study/NAME` or `#/study/x?src=URL`. */
  hash: string;
  id: string;
  title: string;
  /** When it was last opened (ISO). */
  at: string;
}

const KEY = 'studies.opened';
const KEEP = 50;

export async function listOpened(): Promise<OpenedStudy[]> {
  return (await getSetting<OpenedStudy[]>(KEY)) ?? [];
}

/** Remember a study that loaded (newest first; one entry per address). */
export async function rememberOpened(entry: OpenedStudy): Promise<void> {
  const others = (await listOpened()).filter((o) => o.hash !== entry.hash);
  await putSetting(KEY, [entry, ...others].slice(0, KEEP));
}

/** The address that opens a study: by name (a file beside the app) or by its file's URL. */
export function studyHash(name: string, src: string | null): string {
  return src ? `#/study/x?src=${encodeURIComponent(src)}` : `#/study/${encodeURIComponent(name)}`;
}

/** The full link a participant is given. */
export function studyLink(hash: string): string {
  return `${location.href.split('#')[0]}${hash}`;
}
