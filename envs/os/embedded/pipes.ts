/**
 * just-bash differences from bash, fixed on the parsed script before it runs.
 *
 * 1. just-bash gives no stdin to an `if`, `case`, `for` or `[[ ]]` that is part of a pipeline
 * (`… | if [ "$(cat -)" = x ]; then …`, the form several AgentBench check scripts use), while
 * a `{ …; }` group gets it. This transform wraps those commands in a group wherever they sit
 * in a pipeline, so they read the pipe as bash's do.
 * 2. `cmd &` runs to its end here (there are no real background processes) and leaves cmd's
 *    exit status, where bash's `&` always succeeds: `for …; do sudo … & done` in an init
 *    script must not fail the task. The statement is followed by `true` in the same list.
 * 3. Commands run one after another here, so `yes` writes a bounded number of lines. Where
 *    nothing reads it (last in its pipeline, alone, into a file) bash's `yes` never ends: it
 *    becomes YES_FOREVER, which fills the output limit so the command is stopped as a runaway.
 * 4. A `touch` given a time just-bash's touch does not set (-t, -r, -d @SECONDS or a relative
 *    date) becomes touch.ts's command (`renameTouches`); the plain ones stay just-bash's.
 */
import type { TransformPlugin } from 'just-bash';
import { renameTouches } from './touch.ts';

const LOSES_STDIN = new Set(['If', 'Case', 'For', 'CStyleFor', 'ConditionalCommand']);

type Node = { type?: string; [key: string]: unknown };

/** The internal name of a `yes` nothing reads (see gnu.ts). */
export const YES_FOREVER = '__agentplay_yes_forever';

function unreadYes(command: Node | undefined): void {
  const name = command?.type === 'SimpleCommand' ? (command.name as Node | null) : null;
  const parts = name?.parts as Node[] | undefined;
  if (parts?.length === 1 && parts[0].type === 'Literal' && parts[0].value === 'yes') parts[0] = { ...parts[0], value: YES_FOREVER };
}

function group(command: Node): Node {
  const pipeline = { type: 'Pipeline', commands: [command], negated: false };
  const statement = { type: 'Statement', pipelines: [pipeline], operators: [], background: false };
  return { type: 'Group', body: [statement], redirections: [], ...(command.line !== undefined ? { line: command.line } : {}) };
}

/** Marks a background statement already followed by `true`. */
const WRAPPED = '__agentplayBackground';

const word = (text: string) => ({ type: 'Word', parts: [{ type: 'Literal', value: text }] });
const trueCommand = () => ({ type: 'Pipeline', commands: [{ type: 'SimpleCommand', assignments: [], name: word('true'), args: [], redirections: [] }], negated: false });

function backgroundSucceeds(statements: Node[]): Node[] {
  return statements.map((st) => {
    if (!st || st.type !== 'Statement' || st.background !== true || st[WRAPPED]) return st;
    const inner = group({ ...st, type: 'Group-placeholder' });
    // The group holds the original statement (still marked background); `; true` gives status 0.
    (inner.body as Node[])[0] = { ...st, [WRAPPED]: true };
    return { type: 'Statement', pipelines: [{ type: 'Pipeline', commands: [inner], negated: false }, trueCommand()], operators: [';'], background: false };
  });
}

function visit(value: unknown, depth: number): void {
  if (depth > 200 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) visit(item, depth + 1);
    return;
  }
  const node = value as Node;
  renameTouches(node);
  if (node.type === 'Pipeline' && Array.isArray(node.commands)) unreadYes((node.commands as Node[])[node.commands.length - 1]);
  if (node.type === 'Pipeline' && Array.isArray(node.commands) && node.commands.length > 1) {
    node.commands = (node.commands as Node[]).map((c) => (c && LOSES_STDIN.has(c.type ?? '') ? group(c) : c));
  }
  for (const key of Object.keys(node)) {
    const child = node[key];
    if (Array.isArray(child) && child.some((c) => (c as Node)?.type === 'Statement' && (c as Node).background === true && !(c as Node)[WRAPPED])) {
      node[key] = backgroundSucceeds(child as Node[]);
    }
    visit(node[key], depth + 1);
  }
}

export const pipeStdinPlugin: TransformPlugin = {
  name: 'agentplay-pipe-stdin',
  transform: ({ ast }) => {
    visit(ast, 0);
    return { ast };
  },
};
