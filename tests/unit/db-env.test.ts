/**
 * The DB environment through the episode machine: the opening, all 60 reference
 * solutions, Invalid Format, the round limit, upstream's checking quirks, JSON-safe
 * state and info, disposal, and 2,000 random replies.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { db, dbOracleAction, DB_MAX_STEPS, type DbState, type DbTask } from '../../envs/db/index.ts';
import { DB_INSTRUCTION, answerReply, operationReply, parseReply } from '../../envs/db/protocol.ts';
import { DB_ROWS } from '../../envs/db/tasks.ts';
import { checkSelectAnswer } from '../../envs/db/check.ts';
import { pyLiteralEval } from '../../envs/db/pyeval.ts';
import { setDbExecutorFactory } from '../../envs/db/executor.ts';
import { playActions, startEpisode, whenIdle, type EpisodeActor } from '../../envs/core/runner.ts';
import type { EpisodeOutput } from '../../envs/core/episode.ts';
import { playEpisode, task, testRandom } from './helpers.ts';

afterEach(() => setDbExecutorFactory(null));

const FENCE = '```';
const op = (sql: string) => operationReply(sql);

/** The oracle's replies, read from the live state before each step. */
async function* oracle(actor: EpisodeActor, t: DbTask): AsyncGenerator<string> {
  for (;;) {
    const snap = actor.getSnapshot();
    if (snap.status !== 'active' || snap.context.state === undefined) return;
    const action = dbOracleAction(snap.context.state as DbState, t);
    if (action === null) return;
    yield action;
  }
}

describe('db environment', () => {
  it('is AgentBench DB with 60 tasks, the instruction as manual and the question as first observation', async () => {
    expect(db.id).toBe('db');
    expect(db.suites).toEqual([{ suite: 'agentbench', column: 'DB' }]);
    expect(db.conversation('agentbench', db.tasks()[0])).toEqual({ agentbench: { ack: 'Ok.' } });
    expect(db.limitKind).toBe('limit');
    expect(db.asyncStep).toBe(true);
    expect(db.tasks().filter((t) => t.split === 'dev')).toHaveLength(60);
    const t = task(db, 'db-dev-002');
    expect(db.manual(t)).toBe(DB_INSTRUCTION);
    expect(db.maxSteps(t)).toBe(16);
    const init = await db.reset(t, 0);
    expect(init.observation).toBe(
      'how many weeks did julie covington\'s "don\'t cry for me argentina" spend at the top of australia\'s singles chart?\n' +
        'The name of this table is Music Chart History, and the headers of this table are #,Title,Artist,Highest pos. reached,weeks at No. 1.',
    );
    expect(init.score).toBe(0);
    db.dispose!(init.state);
  });

  it('solves all 60 tasks with the reference solutions through the episode machine', async () => {
    const failures: string[] = [];
    for (const t of db.tasks().filter((t) => t.split === 'dev')) {
      const actor = startEpisode(db, t, { seed: 0 });
      await playActions(actor, oracle(actor, t));
      const snap = await whenIdle(actor);
      const out = snap.output as EpisodeOutput;
      const h = snap.context.history;
      if (!(out.success === true && out.finishReason === 'Complete' && out.steps === 2 && out.score === 1)) {
        failures.push(`${t.id}: ${JSON.stringify(out)} ${h.map((e) => e.observation).join(' | ')}`);
      }
      expect(h[0].valid).toBe(true);
      expect(h[0].info?.action).toBe('operation');
      if (t.kind !== 'SELECT') {
        expect(h[0].observation).toBe('[]');
        expect(h[0].info?.hash).toBe(DB_ROWS[t.index].answer_md5);
      }
    }
    expect(failures).toEqual([]);
  });

  it('runs an operation and replies with the printed rows', async () => {
    const t = task(db, 'db-dev-003');
    const { context, output } = await playEpisode(
      db,
      t,
      [
        `I will look it up.\nAction: Operation\n${FENCE}sql\nSELECT Floors FROM skyscrapers_in_Columbus\nWHERE Name = 'Capitol Square';\n${FENCE}`,
        'Action: Answer\nFinal Answer: ["26"]',
      ],
      { seed: 0 },
    );
    expect(context.history[0].observation).toBe("[('26',)]");
    expect(context.history[0].info).toEqual({
      action: 'operation',
      sql: "SELECT Floors FROM skyscrapers_in_Columbus WHERE Name = 'Capitol Square';",
      ok: true,
      rows: 1,
    });
    expect(context.history[1].terminated).toBe(true);
    expect(output).toEqual({ score: 1, success: true, steps: 2, finishReason: 'Complete' });
  });

  it('ends with Invalid Format on a reply that matches no pattern', async () => {
    const t = task(db, 'db-dev-003');
    for (const reply of ['SELECT * FROM t', `Action: Operation\nSELECT 1`, `Action: Operation ${FENCE}sql\nSELECT 1\n${FENCE}`, '']) {
      const { context, output } = await playEpisode(db, t, [reply, 'Action: Answer\nFinal Answer: ["26"]'], { seed: 0 });
      expect(output?.finishReason).toBe('Invalid Format');
      expect(output?.steps).toBe(1);
      expect(output?.success).toBe(false);
      expect(context.history[0].valid).toBe(false);
    }
  });

  it('runs 15 operations; the 16th reply must answer, else Task Limit Exceeded (and is not run)', async () => {
    const t = task(db, 'db-dev-041');
    const ops = Array.from({ length: 16 }, (_, i) => op(`INSERT INTO \`Actress Filmography\` (Year) VALUES ('${i}')`));
    const limited = await playEpisode(db, t, ops, { seed: 0 });
    expect(limited.output?.finishReason).toBe('Task Limit Exceeded');
    expect(limited.output?.steps).toBe(16);
    expect(limited.context.history.slice(0, 15).every((e) => e.info?.action === 'operation')).toBe(true);
    expect(limited.context.history[15].info).toEqual({ action: 'limit' });
    expect(limited.context.history[15].truncated).toBe(true);
    const state = limited.context.state as DbState;
    expect(state.rounds).toBe(15);
    expect(state.session.executor.statements).toHaveLength(15);

    const answered = await playEpisode(db, task(db, 'db-dev-003'), [...Array(15).fill(op('SELECT 1')), 'Action: Answer\nFinal Answer: ["26"]'], {
      seed: 0,
    });
    expect(answered.output).toEqual({ score: 1, success: true, steps: 16, finishReason: 'Complete' });
  });

  it('checks INSERT/UPDATE by the table hash whatever the ending (upstream quirk kept)', async () => {
    const t = task(db, 'db-dev-041');
    const row = DB_ROWS[41];
    const invalidEnd = await playEpisode(db, t, [op(row.label[0]), 'I am done.'], { seed: 0 });
    expect(invalidEnd.output).toEqual({ score: 1, success: true, steps: 2, finishReason: 'Invalid Format' });
    const wrong = await playEpisode(db, t, [op(row.label[0].replace('1984', '1985')), answerReply('[]')], { seed: 0 });
    expect(wrong.output?.success).toBe(false);
    const twice = await playEpisode(db, t, [op(row.label[0]), op(row.label[0]), answerReply('anything')], { seed: 0 });
    expect(twice.output?.success).toBe(true);
  });

  it('checks SELECT answers as upstream (float, string, set)', async () => {
    const play = async (id: string, answer: string) =>
      (await playEpisode(db, task(db, id), [`Action: Answer\nFinal Answer: ${answer}`], { seed: 0 })).output?.success;
    expect(await play('db-dev-004', '["1"]')).toBe(true); // label 1.0
    expect(await play('db-dev-004', '[1.0]')).toBe(true);
    expect(await play('db-dev-004', '["one"]')).toBe(false);
    expect(await play('db-dev-007', '["2–0", "1–0"]')).toBe(true);
    expect(await play('db-dev-007', '["1–0"]')).toBe(false);
    expect(await play('db-dev-006', "['Dick Murdoch']")).toBe(true);
    expect(await play('db-dev-006', 'Dick Murdoch')).toBe(false);
  });

  it('keeps state and step info JSON-safe; the database never leaks into them', async () => {
    const t = task(db, 'db-dev-041');
    const { context } = await playEpisode(db, t, [op('SELECT * FROM `Actress Filmography` LIMIT 2'), op(DB_ROWS[41].label[0])], { seed: 0 });
    const state = context.state as DbState;
    const json = JSON.parse(JSON.stringify(state));
    expect(json.session).toEqual({ statements: 2, restarts: 0 });
    expect(json.last).toEqual({ sql: DB_ROWS[41].label[0], ok: true, columns: [], rows: [], complete: true });
    expect(JSON.stringify(state).length).toBeLessThan(1000);
    for (const entry of context.history) expect(JSON.parse(JSON.stringify(entry.info))).toEqual(entry.info);
    db.dispose!(state);
  });

  it('closes the database when the episode ends (give up included)', async () => {
    const t = task(db, 'db-dev-003');
    const actor = startEpisode(db, t, { seed: 0 });
    let snap = await whenIdle(actor);
    const state = snap.context.state as DbState;
    actor.send({ type: 'GIVE_UP' });
    snap = await whenIdle(actor);
    expect(snap.status).toBe('done');
    expect((snap.output as EpisodeOutput).finishReason).toBe('Given Up');
    await expect(state.session.executor.exec('SELECT 1')).rejects.toThrow('closed');
  });

  it('never throws on 2,000 random replies', async () => {
    const rand = testRandom(2024);
    const pieces = [
      'Action: ',
      'Operation',
      'Answer',
      '\n',
      FENCE,
      'sql',
      '\nFinal Answer:',
      ' [',
      ']',
      '"',
      "'",
      '\\',
      'SELECT ',
      '* ',
      'FROM ',
      '`Game Schedule` ',
      'WHERE ',
      'Game ',
      '> ',
      '< ',
      '= ',
      "'Athlone Town' ",
      '17 ',
      'IN (1, 2, 3) ',
      'COUNT(*) ',
      'UPDATE ',
      'SET ',
      'INSERT INTO ',
      'VALUES ',
      '(',
      ')',
      ';',
      ',',
      'BEGIN; ',
      'ROLLBACK ',
      'DROP TABLE ',
      'é😀\u0000\ufeff',
      ' ',
      '\t',
      '\r\n',
      'None',
      '1e309',
      '0x',
      '#',
    ];
    const t = task(db, 'db-dev-004');
    let state = (await db.reset(t, 0)).state;
    for (let i = 0; i < 2000; i++) {
      let text = '';
      const n = Math.floor(rand() * 14);
      for (let k = 0; k < n; k++) text += pieces[Math.floor(rand() * pieces.length)];
      if (rand() < 0.3) text = `Action: Operation\n${FENCE}sql\n${text}\n${FENCE}`;
      const step = await db.step(state, text);
      expect(typeof step.observation).toBe('string');
      expect(typeof step.valid).toBe('boolean');
      expect([0, 1]).toContain(step.score);
      expect(() => parseReply(text, i % 17)).not.toThrow();
      expect(() => checkSelectAnswer(text, ['1.0'])).not.toThrow();
      expect(() => pyLiteralEval(text)).not.toThrow();
      // Keep playing on the same database while the episode would go on.
      state = step.state.done || step.state.rounds >= 15 ? { ...step.state, done: false, rounds: 0 } : step.state;
    }
    db.dispose!(state);
    expect(DB_MAX_STEPS).toBe(16);
  });
});
