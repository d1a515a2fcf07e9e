/** How the embedded shell words errors that escape a command. */

/** An error that escaped a command, as bash words it ("EACCES: permission denied, open '/x'" → "/x: Permission denied"). */
export function fsErrorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const m = /^(EACCES|EPERM|ENOENT|EISDIR|ENOTDIR): [^,]*, \w+ '(.*)'$/.exec(message);
  // An error already in the system's words that names its file apart (perms.ts's missing directory).
  const path = (err as { path?: unknown } | null)?.path;
  if (!m) return typeof path === 'string' && !message.startsWith(`${path}: `) ? `${path}: ${message}` : message;
  const why: Record<string, string> = { EACCES: 'Permission denied', EPERM: 'Operation not permitted', ENOENT: 'No such file or directory', EISDIR: 'Is a directory', ENOTDIR: 'Not a directory' };
  return `${m[2]}: ${why[m[1]]}`;
}

/** Just the system's words for a file error ("Permission denied"), for messages that name the file themselves. */
export function errorWords(err: unknown): string {
  return fsErrorText(err).replace(/^.*: /, '');
}
