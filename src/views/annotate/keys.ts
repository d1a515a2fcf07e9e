/** Shared keyboard helpers for the annotation pages. */

/** True when a key press belongs to a text field (or a modifier chord) and page keys must ignore it. */
export function typing(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey) return true;
  const t = event.target as HTMLElement | null;
  // A ticked checkbox keeps focus but takes no keys except Space: the page's keys still work there.
  if (t instanceof HTMLInputElement && (t.type === 'checkbox' || t.type === 'radio')) return event.key === ' ';
  return !!t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));
}

export const EDITOR_KEYS = [
  { keys: '↑ ↓', does: 'select a subgoal' },
  { keys: 'Alt+↑ Alt+↓', does: 'move it up / down' },
  { keys: 'E', does: 'edit its matcher (Enter keeps, Esc cancels)' },
  { keys: 'N', does: 'rename it' },
  { keys: 'Delete', does: 'delete it' },
  { keys: 'J', does: 'jump to its next finding' },
  { keys: 'S', does: 'save the draft as a new version' },
] as const;
