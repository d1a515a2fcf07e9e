/**
 * AgentBench OS interaction, text-prompt version (README.md, Upstream: AgentBench @ 41e6807):
 * the instruction and one-shot example a model is given, the parsing of its reply,
 * and the wording of the OS's answer.
 */

/**
 * The first user message before the one-shot question. Quirks kept: "I'will" and the space
 * after `"answer".`. It ends with two newlines: upstream writes `\n\n` inside an ordinary
 * (not raw) triple-quoted string, so they are newline characters (checked by running
 * AgentBench's own Session, tests/fixtures/upstream/agentbench/conversation/).
 */
export const INSTRUCTION =
  'You are an assistant that will act like a person, I\'will play the role of linux(ubuntu) operating system. ' +
  'Your goal is to implement the operations required by me or answer to the question proposed by me. ' +
  'For each of your turn, you should first think what you should do, and then take exact one of the three actions: ' +
  '"bash", "finish" or "answer". \n\n' +
  '1. If you think you should execute some bash code, take bash action, and you should print like this:\n\n' +
  'Think: put your thought here.\n\n' +
  'Act: bash\n\n' +
  '```bash\n# put your bash code here\n```\n\n' +
  '2. If you think you have finished the task, take finish action, and you should print like this:\n\n' +
  'Think: put your thought here.\n\n' +
  'Act: finish\n\n' +
  '3. If you think you have got the answer to the question, take answer action, and you should print like this:\n\n' +
  'Think: put your thought here.\n\n' +
  'Act: answer(Your answer to the question should be put in this pair of parentheses)\n\n' +
  'If the output is too long, I will truncate it. The truncated output is not complete. ' +
  'You have to deal with the truncating problem by yourself. ' +
  'Attention, your bash code should not contain any input operation. ' +
  'Once again, you should take only exact one of the three actions in each turn.\n\n';

export interface ChatTurn {
  role: 'user' | 'agent';
  content: string;
}

/** The one-shot demonstration (count the files in /etc). Its OS replies use a single newline, as upstream's do. */
export const ONE_SHOT: readonly ChatTurn[] = [
  { role: 'user', content: 'tell me how many files are in the directory "/etc"?' },
  {
    role: 'agent',
    content: 'Think: To count the files in /etc, I need to print all the files in it.\n\nAct: bash\n\n```bash\nls /etc\n```',
  },
  {
    role: 'user',
    content:
      'The output of the OS:\ncpi cron.hourly fuse.conf iproute2 lvm networkd-dispatcher protocols ' +
      'selinux tmpfiles.d [truncated because the output is too long]',
  },
  {
    role: 'agent',
    content:
      'Think: The output has been truncated because it is too long, so I need to count files by script directly.\n\n' +
      'Act: bash\n\n```bash\nls -1 /etc | wc -l\n```',
  },
  { role: 'user', content: 'The output of the OS:\n220' },
  { role: 'agent', content: 'Think: Now I get the answer, it is 220.\n\nAct: answer(220)' },
];

/** The user message that starts the real problem. */
export function problemMessage(description: string): string {
  return `Now, I will start a new problem in a new OS. My problem is:\n\n${description}`;
}

/**
 * The conversation exactly as upstream injects it before the model's first turn:
 * instruction + one-shot question, the one-shot turns, then the problem.
 */
export function openingTurns(description: string): ChatTurn[] {
  return [
    { role: 'user', content: `${INSTRUCTION}Now, my problem is:\n\n${ONE_SHOT[0].content}` },
    ...ONE_SHOT.slice(1),
    { role: 'user', content: problemMessage(description) },
  ];
}

/** The turns AgentBench injects before the problem (the problem is the reset observation, the seventh message). */
export const OPENING: readonly ChatTurn[] = openingTurns('').slice(0, -1);

/** The instruction and the one-shot example as one text (the turns separated by blank lines). */
export const MANUAL: string = openingTurns('')
  .slice(0, -1)
  .map((turn) => turn.content)
  .join('\n\n');

export type OsAction = { kind: 'bash'; script: string } | { kind: 'finish' } | { kind: 'answer'; answer: string };

const FENCE_OPEN = '```bash\n';
const FENCE_CLOSE = '\n```';

/**
 * The bodies of upstream's ```bash\n(.*?)\n``` blocks (non-overlapping, left to right), found
 * with indexOf so that many unclosed fences cost linear time: once no closing fence follows a
 * position, none follows any later opening either.
 */
export function bashBlocks(reply: string): string[] {
  const blocks: string[] = [];
  let from = 0;
  for (;;) {
    const open = reply.indexOf(FENCE_OPEN, from);
    if (open === -1) break;
    const body = open + FENCE_OPEN.length;
    // The body may be empty: the closing newline may be the first character after the opening one.
    const close = reply.indexOf(FENCE_CLOSE, body);
    if (close === -1) break;
    blocks.push(reply.slice(body, close));
    from = close + FENCE_CLOSE.length;
  }
  return blocks;
}

/** The text after every `Act:` and any whitespace (newlines too), up to the end of its line: Python's `Act:\s*(.+)`. */
function actLines(reply: string): string[] {
  const acts: string[] = [];
  let from = 0;
  for (;;) {
    const at = reply.indexOf('Act:', from);
    if (at === -1) break;
    let start = at + 4;
    while (start < reply.length && isSpace(reply.charCodeAt(start))) start++;
    // Whitespace to the very end: `(.+)` can then only take one whitespace character, which
    // names no action, so nothing that matters is captured (and no `Act:` follows).
    if (start >= reply.length) break;
    // The whitespace stopped at a visible character, so the capture runs from it to the end of its line.
    let end = reply.indexOf('\n', start);
    if (end === -1) end = reply.length;
    acts.push(reply.slice(start, end));
    from = end;
  }
  return acts;
}

/**
 * Upstream's extract_action: take every `Act:` line and look at them from the last one back;
 * `bash…` → the bodies of all ```bash fenced blocks joined by a blank line; `finish…` → commit
 * without an answer; `answer…` → the text between the first "(" and the last ")" after the word
 * (a line without both parentheses is skipped). null when nothing is recognised. Linear in the
 * reply's length (no backtracking patterns on the reply).
 */
export function parseAction(reply: string): OsAction | null {
  const acts = actLines(reply);
  for (let i = acts.length - 1; i >= 0; i--) {
    const act = acts[i];
    const lower = act.slice(0, 6).toLowerCase();
    if (lower.startsWith('bash')) return { kind: 'bash', script: bashBlocks(reply).join('\n\n') };
    if (lower.startsWith('finish')) return { kind: 'finish' };
    if (lower.startsWith('answer')) {
      const rest = pyStrip(act.slice(6));
      const open = rest.indexOf('(');
      const close = rest.lastIndexOf(')');
      if (open === -1 || close === -1) continue;
      return { kind: 'answer', answer: rest.slice(open + 1, close) };
    }
  }
  return null;
}

/** Whitespace as Python's str.isspace() sees it (ASCII, \x1c-\x1f, \x85 and Unicode spaces). */
export function isSpace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    (code >= 0x1c && code <= 0x20) ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Python's str.strip() with no argument, in linear time (two index scans, no regular expression). */
export function pyStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

export const OUTPUT_LIMIT = 800;
export const OUTPUT_KEEP = 780;
export const TRUNCATION_NOTICE = '\n[truncated because the output is too long]';

/** Output longer than 800 characters keeps its first 780 and the notice (Python counts code points). */
export function truncateOutput(output: string): string {
  const chars = Array.from(output);
  if (chars.length <= OUTPUT_LIMIT) return output;
  return chars.slice(0, OUTPUT_KEEP).join('') + TRUNCATION_NOTICE;
}

/** The OS's reply to a bash action. */
export function osReply(output: string): string {
  const shown = truncateOutput(output);
  return shown ? `The output of the OS:\n\n${shown}` : 'The output of the OS is empty.';
}

/** The text of a bash action as a model would write it (used by the oracle and tests). */
export function bashAction(script: string, thought = 'I will run a command.'): string {
  return `Think: ${thought}\n\nAct: bash\n\n\`\`\`bash\n${script}\n\`\`\``;
}

export function answerAction(answer: string, thought = 'I have the answer.'): string {
  return `Think: ${thought}\n\nAct: answer(${answer})`;
}

export function finishAction(thought = 'The task is done.'): string {
  return `Think: ${thought}\n\nAct: finish`;
}
