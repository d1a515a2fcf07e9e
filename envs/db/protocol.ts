/**
 * AgentBench DB's text protocol (README.md, Upstream; src/server/tasks/dbbench/__init__.py,
 * text-prompt version): the instruction is the first user message, the agent answers
 * "Ok.", then the question is the second user message. Each reply is parsed with
 * upstream's regular expressions (Python's `.` matches everything but "\n", so the
 * patterns below use [^\n] where Python has `.`).
 */
import type { DbRow } from './tasks.ts';
import { pyStrip } from './pyeval.ts';

/** upstream `big_prompt`, character for character (it starts and ends with a newline). */
export const DB_INSTRUCTION = [
  '',
  'I will ask you a question, then you should help me operate a MySQL database with SQL to answer the question.',
  'You have to explain the problem and your solution to me and write down your thoughts.',
  'After thinking and explaining thoroughly, every round you can choose to operate or to answer.',
  'your operation should be like this:',
  'Action: Operation',
  '```sql',
  'SELECT * FROM table WHERE condition;',
  '```',
  'You MUST put SQL in markdown format without any other comments. Your SQL should be in one line.',
  'Every time you can only execute one SQL statement. I will only execute the statement in the first SQL code block. Every time you write a SQL, I will execute it for you and give you the output.',
  'If you are done operating, and you want to commit your final answer, then write down:',
  'Action: Answer',
  'Final Answer: ["ANSWER1", "ANSWER2", ...]',
  'DO NOT write this pattern unless you are sure about your answer. I expect an accurate and correct answer.',
  'Your answer should be accurate. Your answer must be exactly the same as the correct answer.',
  'If the question is about modifying the database, then after done operation, your answer field can be anything.',
  'If your response cannot match any pattern I mentioned earlier, you will be judged as FAIL immediately.',
  'Your input will be raw MySQL response, you have to deal with it by yourself.',
  '',
].join('\n');

/** The agent turn AgentBench injects after the instruction. */
export const DB_ACK = 'Ok.';

/** `max_round` in configs/tasks/dbbench.yaml: operations executed before the reply that must answer. */
export const DB_ROUND_LIMIT = 15;

/** The second user message: `description + "\n" + add_description`. */
export function dbQuestion(row: DbRow): string {
  return `${row.description}\n${row.add_description}`;
}

/** The conversation AgentBench opens a DB sample with. */
export function dbOpening(row: DbRow): { role: 'user' | 'agent'; content: string }[] {
  return [
    { role: 'user', content: DB_INSTRUCTION },
    { role: 'agent', content: DB_ACK },
    { role: 'user', content: dbQuestion(row) },
  ];
}

export type DbReply =
  /** Run `sql` (the first ```sql block, stripped, newlines turned into spaces). */
  | { kind: 'operation'; sql: string }
  /** A final answer (the text after "Final Answer:", leading space included, as upstream keeps it). */
  | { kind: 'answer'; answer: string }
  /** Upstream AGENT_VALIDATION_FAILED: no pattern matched (Invalid Format). */
  | { kind: 'invalid'; reason: 'no-action' | 'no-sql-block' }
  /** Upstream TASK_LIMIT_REACHED: the round limit is used up and this reply gives no answer. */
  | { kind: 'limit'; answer: string | null };

/*
 * Upstream's patterns, found with indexOf so a reply of any length parses in linear time
 * (a regular expression with a lazy group re-scans the rest of the text from every
 * candidate start, which is quadratic on a long reply without the closing text):
 *   `Action: (.*?)\n`        the first "Action: " followed, on its line, by a newline;
 *   "```sql\n(.*?)\n```" (DOTALL)  the first "```sql\n" and the first "\n```" after it;
 *   `\nFinal Answer:(.*)`    the first "\nFinal Answer:" and the rest of its line.
 * In each case, when the first candidate start has no closing text after it, no later
 * candidate has either, so looking at the first one only gives the regex's answer.
 */

/** `re.search(r"Action: (.*?)\n", text)` group 1, or null. */
export function findAction(text: string): string | null {
  const start = text.indexOf('Action: ');
  if (start < 0) return null;
  const end = text.indexOf('\n', start + 8);
  return end < 0 ? null : text.slice(start + 8, end);
}

/** `re.search(r"```sql\n(.*?)\n```", text, re.DOTALL)` group 1, or null. */
export function findSqlBlock(text: string): string | null {
  const start = text.indexOf('```sql\n');
  if (start < 0) return null;
  const end = text.indexOf('\n```', start + 7);
  return end < 0 ? null : text.slice(start + 7, end);
}

/** `re.search(r"\nFinal Answer:(.*)", text)` group 1, or null. */
export function findFinalAnswer(text: string): string | null {
  const start = text.indexOf('\nFinal Answer:');
  if (start < 0) return null;
  const end = text.indexOf('\n', start + 14);
  return text.slice(start + 14, end < 0 ? text.length : end);
}

/**
 * One reply, judged as upstream's loop does after `rounds` executed operations:
 * an "Action: Operation" line (exactly, followed by a newline) runs the first sql block
 * while rounds < limit; any other reply must contain "\nFinal Answer:"; once the limit
 * is reached a reply without a (non-empty) answer is TASK_LIMIT_REACHED.
 */
export function parseReply(text: string, rounds: number, roundLimit = DB_ROUND_LIMIT): DbReply {
  const action = findAction(text);
  if (action === 'Operation' && rounds < roundLimit) {
    const block = findSqlBlock(text);
    if (block === null) return { kind: 'invalid', reason: 'no-sql-block' };
    return { kind: 'operation', sql: pyStrip(block).replaceAll('\n', ' ') };
  }
  const answer = findFinalAnswer(text);
  // Upstream: `if rounds >= self.max_round and not answer` (an empty answer counts as none here).
  if (rounds >= roundLimit && !answer) return { kind: 'limit', answer };
  if (answer === null) return { kind: 'invalid', reason: 'no-action' };
  return { kind: 'answer', answer };
}

/** The reply an agent sends to run one statement. */
export function operationReply(sql: string): string {
  return `Action: Operation\n\`\`\`sql\n${sql}\n\`\`\``;
}

/** The reply an agent sends to answer; `answerText` follows "Final Answer: ". */
export function answerReply(answerText: string): string {
  return `Action: Answer\nFinal Answer: ${answerText}`;
}
