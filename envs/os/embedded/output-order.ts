/**
 * stdout and stderr in the order the shell wrote them. Upstream's shell runs on a terminal (docker exec with a
 * tty), where both streams arrive interleaved as written: `cat missing; echo x` shows the error first. just-bash
 * returns the two streams apart; our patch to it (patches/just-bash+*.patch) records, per result, the length of
 * each run written to one stream in `outputOrder` (positive: stdout, negative: stderr), kept through
 * statements, loops, groups, pipelines and control flow. Where a step rebuilt a result without it (a
 * redirection, a command's own two streams), that part reads stdout then stderr, as before the patch.
 */
export interface OutputPiece {
  readonly stderr: boolean;
  readonly text: string;
}

export function writeOrder(stdout: string, stderr: string, order: unknown): OutputPiece[] {
  if (Array.isArray(order) && order.every((n) => typeof n === 'number' && Number.isInteger(n) && n !== 0)) {
    let outLength = 0;
    let errLength = 0;
    for (const n of order as number[]) n > 0 ? (outLength += n) : (errLength -= n);
    if (outLength === stdout.length && errLength === stderr.length) {
      const pieces: OutputPiece[] = [];
      let o = 0;
      let e = 0;
      for (const n of order as number[]) {
        if (n > 0) pieces.push({ stderr: false, text: stdout.slice(o, (o += n)) });
        else pieces.push({ stderr: true, text: stderr.slice(e, (e -= n)) });
      }
      return pieces;
    }
  }
  return [
    { stderr: false, text: stdout },
    { stderr: true, text: stderr },
  ].filter((piece) => piece.text !== '');
}

/** The pieces as one text, each stderr piece through `editStderr` (the shell's own stop messages). */
export function joinPieces(pieces: readonly OutputPiece[], editStderr: (text: string) => string = (text) => text): string {
  return pieces.map((piece) => (piece.stderr ? editStderr(piece.text) : piece.text)).join('');
}

/**
 * A command of ours whose errors come before all its output (GNU ls reports missing operands before it lists
 * anything): the record just-bash's patched interpreter keeps for the rest of the script.
 */
export function stderrFirst<T extends { stdout: string; stderr: string }>(result: T): T & { outputOrder: number[] } {
  return { ...result, outputOrder: [-result.stderr.length, result.stdout.length].filter((n) => n !== 0) };
}
