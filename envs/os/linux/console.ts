/**
 * The command protocol over one serial console of the Linux guest (no emulator here: bytes in,
 * bytes out, so it is tested without booting anything).
 *
 * The guest's bash prints `RS P <status> RS` before every prompt (PROMPT_COMMAND, set in the
 * image's /etc/bash.bashrc; RS = \x1e). A command is sent as one line of builtins only (no fork:
 * each costs the emulated guest tens of milliseconds),
 *   printf '\036S<nonce>\036'; eval -- $'<source, non-printables as \xHH>'
 * so its output is exactly what comes between the start mark with our nonce and the next prompt
 * mark, whatever the shell echoed or prompted before (a nested `su - user` shell included: its
 * first prompt ends the command, as upstream sees it). A runaway command is interrupted with
 * Ctrl+C, which brings the next prompt mark.
 */
import stripAnsi from 'strip-ansi';

const RS = 0x1e;

export interface ConsoleResult {
  output: string;
  exitCode: number;
  timedOut: boolean;
  /** The guest did not come back to a prompt after Ctrl+C (it has to be restored). */
  hung: boolean;
}

export interface ConsoleRunOptions {
  timeoutMs: number;
  /** How long to wait for a prompt after Ctrl+C before calling the guest hung. */
  interruptGraceMs?: number;
  signal?: AbortSignal;
}

type Waiter = (mark: { kind: 'S' | 'P'; value: string }) => void;

/**
 * The longest line a word is typed in. The guest's shells read lines without readline (the tty's
 * own line editing, image/boot.ts), which holds at most 4095 characters a line: a longer word goes
 * in as several lines, each piece ended by `'\` and the next begun by `$'` (bash drops a
 * backslash-newline, so the pieces are one word). Readline (a shell started inside) reads it alike.
 */
export const TYPED_LINE_MAX = 1000;

/**
 * A bash word (`$'…'`) that is exactly `text`, in printable ASCII only: readline takes every
 * byte as typed (no tab completion, no meta keys, no history `!`), and no piece holds a newline
 * or is longer than TYPED_LINE_MAX.
 */
export function bashString(text: string): string {
  let out = "$'";
  let line = 2;
  for (const b of new TextEncoder().encode(text)) {
    let piece: string;
    if (b === 0x27) piece = "\\'";
    else if (b === 0x5c) piece = '\\\\';
    else if (b >= 0x20 && b < 0x7f && b !== 0x21) piece = String.fromCharCode(b);
    else piece = `\\x${b.toString(16).padStart(2, '0')}`;
    if (line + piece.length + 2 > TYPED_LINE_MAX) {
      out += "'\\\n$'";
      line = 2;
    }
    out += piece;
    line += piece.length;
  }
  return `${out}'`;
}

/** Terminal output as the recorded text: CRLF from the tty's output processing back to LF. */
export const fromTerminal = (text: string) => text.replace(/\r+\n/g, '\n');

let counter = 0;
const nonce = () => `${Date.now().toString(36)}${(counter++).toString(36)}${Math.floor(Math.random() * 1e9).toString(36)}`;

export class SerialConsole {
  private readonly decoder = new TextDecoder();
  /** Bytes since the last mark (the current command's output once its start mark was seen). */
  private chunk: number[] = [];
  private inMark = false;
  private mark: number[] = [];
  private waiter: Waiter | null = null;
  /** The text of the current command (after its start mark), or null when none runs. */
  private capturing: number[] | null = null;
  /** The finished command's output, until run() collects it. */
  private captured: number[] | null = null;
  private expected: string | null = null;
  /**
   * Set to have the running command's output kept for a terminal view (takeText): what it prints
   * after its start mark, so neither the echo of the protocol line nor the prompt.
   */
  onText: ((text: string) => void) | null = null;

  constructor(private readonly send: (text: string) => void) {}

  /** One byte from the guest's serial port. */
  feed(byte: number): void {
    if (byte === RS) {
      if (this.inMark) {
        this.inMark = false;
        const text = String.fromCharCode(...this.mark);
        this.mark = [];
        const kind = text[0];
        if (kind === 'S' || kind === 'P') this.onMark(kind, text.slice(1));
      } else this.inMark = true;
      return;
    }
    if (this.inMark) {
      // A mark is short ASCII; anything else means the RS was the program's own byte.
      if (this.mark.length < 64 && byte >= 0x20 && byte < 0x7f) {
        this.mark.push(byte);
        return;
      }
      this.inMark = false;
      const stray = [RS, ...this.mark, byte];
      this.mark = [];
      for (const b of stray) this.plain(b);
      return;
    }
    this.plain(byte);
  }

  private plain(byte: number): void {
    if (!this.capturing) return;
    this.capturing.push(byte);
    if (this.onText) this.chunk.push(byte);
  }

  /** Bytes for a terminal view, flushed by the caller (e.g. once per emulator tick). */
  takeText(): string {
    if (this.chunk.length === 0) return '';
    const text = this.decoder.decode(new Uint8Array(this.chunk), { stream: true });
    this.chunk = [];
    return text;
  }

  private onMark(kind: 'S' | 'P', value: string): void {
    if (kind === 'S' && value === this.expected) this.capturing = [];
    else if (kind === 'P' && this.capturing) {
      // The prompt ends the command's output (what follows is the prompt itself).
      this.captured = this.capturing;
      this.capturing = null;
    }
    this.waiter?.({ kind, value });
  }

  /** Wait for a mark that `accept` takes, or null after `ms`. */
  private waitFor(accept: (m: { kind: 'S' | 'P'; value: string }) => boolean, ms: number, signal?: AbortSignal): Promise<{ kind: 'S' | 'P'; value: string } | null> {
    return new Promise((resolve) => {
      const done = (m: { kind: 'S' | 'P'; value: string } | null) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiter = null;
        resolve(m);
      };
      const onAbort = () => done(null);
      const timer = setTimeout(() => done(null), ms);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiter = (m) => {
        if (accept(m)) done(m);
      };
      if (signal?.aborted) done(null);
    });
  }

  /** Wait until the shell shows a prompt (after boot or a restore), sending Enter to ask for one. */
  async ready(ms: number): Promise<boolean> {
    const prompt = this.waitFor((m) => m.kind === 'P', ms);
    this.send('\n');
    return (await prompt) !== null;
  }

  /** Run bash source as one interactive command line; resolves at the next prompt. */
  async run(source: string, options: ConsoleRunOptions): Promise<ConsoleResult> {
    const id = nonce();
    this.expected = id;
    this.capturing = null;
    this.captured = null;
    const started = Date.now();
    // Wait for our start mark, then the prompt after it.
    let sawStart = false;
    const end = this.waitFor((m) => {
      if (m.kind === 'S' && m.value === id) sawStart = true;
      return m.kind === 'P' && sawStart;
    }, options.timeoutMs, options.signal);
    this.send(` printf '\\036S${id}\\036'; eval -- ${bashString(source)}\n`);
    const mark = await end;
    if (mark) return this.finish(Number(mark.value) || 0, false, false);
    // Too long (or cancelled): Ctrl+C to the foreground process group, then a prompt must come.
    const grace = options.interruptGraceMs ?? Math.max(500, 2000 - (Date.now() - started - options.timeoutMs));
    const prompt = this.waitFor((m) => m.kind === 'P', grace);
    this.send('\x03');
    let after = await prompt;
    if (!after) {
      // Interrupted before bash read the line (or a program ignores SIGINT): one more try.
      const again = this.waitFor((m) => m.kind === 'P', 500);
      this.send('\x03\n');
      after = await again;
    }
    return this.finish(after ? Number(after.value) || 130 : 130, true, after === null);
  }

  private finish(exitCode: number, timedOut: boolean, hung: boolean): ConsoleResult {
    const bytes = this.captured ?? this.capturing ?? [];
    this.capturing = null;
    this.captured = null;
    this.expected = null;
    // As AgentBench's output: without the terminal's escape sequences (colours, titles); a
    // person's terminal shows them from the live stream (takeText).
    let output = stripAnsi(fromTerminal(new TextDecoder().decode(new Uint8Array(bytes))));
    // The tty's echo of Ctrl+C is not the command's output.
    if (timedOut) output = output.replace(/\^C\n?$/, '');
    return { output, exitCode, timedOut, hung };
  }
}
