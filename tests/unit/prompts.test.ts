/**
 * Prompt protocols, checked against strings written from the suites' upstream facts
 * (suites/smartplay/README.md, suites/agentboard/README.md and suites/agentbench/README.md,
 * "Upstream": SmartPlay's driver, AgentBoard's VanillaAgent, AgentBench's Session.filter_messages).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  SMARTPLAY_QUESTIONS,
  agentbenchConversation,
  agentbenchPrompt,
  agentbenchSegments,
  agentboardPrompt,
  estimateMessageTokens,
  estimateTokens,
  parseAgentBoardReply,
  parseOpenModelAction,
  smartplayPrompt,
  truncateAgentBench,
  type AgentBoardParams,
} from '../../envs/core/prompts/index.ts';
import { hanoi } from '../../envs/hanoi/index.ts';
import { suiteById } from '../../suites/index.ts';

const PLAYER = 'You’re a player trying to play the game.';
const Q1 = "What is the best action to take? Let's think step by step, ";
const Q2 = 'Choose the best executable action from the list of all actions. Write the exact chosen action.';

describe('SmartPlay prompt', () => {
  it('asks the first question after the player line, manual and current observation', () => {
    expect(SMARTPLAY_QUESTIONS).toEqual([Q1, Q2]);
    expect(smartplayPrompt({ manual: 'MANUAL', observations: ['O0'], historyWindow: 5 }, 0)).toEqual([
      { role: 'system', content: 'You’re a player trying to play the game.' },
      { role: 'system', content: 'MANUAL' },
      { role: 'system', content: 'current step observation: O0' },
      { role: 'user', content: "What is the best action to take? Let's think step by step, " },
    ]);
  });

  it('asks the second question after the first answer, with the history window', () => {
    const messages = smartplayPrompt({ manual: 'MANUAL', observations: ['O0', 'O1', 'O2'], historyWindow: 1 }, 1, ['I think A to C.']);
    expect(messages).toEqual([
      { role: 'system', content: PLAYER },
      { role: 'system', content: 'MANUAL' },
      { role: 'system', content: "Most recent 1 steps of the player's in-game observation:\n\nPlayer Observation Step 1:\nO1" },
      { role: 'system', content: 'current step observation: O2' },
      { role: 'user', content: Q1 },
      { role: 'assistant', content: 'I think A to C.' },
      { role: 'user', content: Q2 },
    ]);
  });

  it('shows the whole window of previous observations, numbered from step 0', () => {
    const messages = smartplayPrompt({ manual: '', observations: ['O0', 'O1', 'O2'], historyWindow: 5 }, 0);
    expect(messages).toEqual([
      { role: 'system', content: PLAYER },
      { role: 'system', content: "Most recent 2 steps of the player's in-game observation:\n\nPlayer Observation Step 0:\nO0\n\nPlayer Observation Step 1:\nO1" },
      { role: 'system', content: 'current step observation: O2' },
      { role: 'user', content: Q1 },
    ]);
  });

  it('needs the first answer before the second question', () => {
    expect(() => smartplayPrompt({ manual: 'M', observations: ['O0'], historyWindow: 5 }, 1)).toThrow();
    expect(() => smartplayPrompt({ manual: 'M', observations: ['O0'], historyWindow: 5 }, 2, ['a', 'b'])).toThrow(RangeError);
  });

  it('SmartPlay’s suite plans two calls and takes the second reply as the action', () => {
    const task = hanoi.tasks()[0];
    const plan = suiteById('smartplay').prompt({ manual: hanoi.manual(task), observations: ['Current configuration:\nX'], actions: [] }, hanoi.conversation('smartplay', task));
    expect(plan.calls).toBe(2);
    expect(plan.messages(0, [])[1]).toEqual({ role: 'system', content: hanoi.manual(task) });
    expect(plan.messages(1, ['think'])).toHaveLength(6);
    expect(plan.action(['think', 'Move the top disk of rod A to the top of rod C'])).toBe('Move the top disk of rod A to the top of rod C');
    expect(plan.defaults).toEqual({});
  });
});

const BOARD: AgentBoardParams = {
  system_msg: 'You are an exploration master that wants to finish every goal you are given.',
  instruction: 'INSTRUCTION \n',
  examples: ['EXAMPLE ONE', 'EXAMPLE TWO'],
  goal: 'go to the red ball',
  checkInventory: true,
};

describe('AgentBoard prompt', () => {
  it('builds the VanillaAgent system and user messages', () => {
    const { messages, dropped } = agentboardPrompt(BOARD, ['o0', 'o1'], ['turn left']);
    expect(dropped).toBe(0);
    expect(messages).toEqual([
      { role: 'system', content: 'You are an exploration master that wants to finish every goal you are given.' },
      {
        role: 'user',
        content:
          'INSTRUCTION \n' +
          '\nHere are examples:\nEXAMPLE ONE\nEXAMPLE TWO\n' +
          'You should perform actions to accomplish the goal: go to the red ball\n' +
          'You should use the following commands for help when your action cannot be understood: check valid actions\n' +
          'You should use the following commands for help when your action cannot be understood: inventory\n' +
          'Observation: o0\nAction: turn left\nObservation: o1\nAction: ',
      },
    ]);
  });

  it('leaves out the goal, examples and inventory lines when not given (PDDL has no inventory line)', () => {
    const { messages } = agentboardPrompt({ system_msg: 'S', instruction: 'I', examples: [], goal: null }, ['o0'], []);
    expect(messages[1].content).toBe('IYou should use the following commands for help when your action cannot be understood: check valid actions\nObservation: o0\nAction: ');
    const none = agentboardPrompt({ system_msg: 'S', instruction: 'I', examples: 'E', checkActions: null }, ['o0'], []);
    expect(none.messages[1].content).toBe('I\nHere are examples:\nE\nObservation: o0\nAction: ');
  });

  it('drops the oldest history lines, one at a time, until the request fits', () => {
    // Count = number of lines of the user message; budget = contextLength - maxTokens = 6.
    const countTokens = (m: readonly { content: string }[]) => m[1].content.split('\n').length;
    const params: AgentBoardParams = { system_msg: 'S', instruction: 'I\n', examples: [], checkActions: null, contextLength: 6, maxTokens: 0, countTokens };
    const { messages, dropped } = agentboardPrompt(params, ['o0', 'o1', 'o2', 'o3'], ['a1', 'a2', 'a3']);
    // Lines, not turns, are dropped, so the kept history may start with an Action line (as upstream).
    expect(dropped).toBe(3);
    expect(messages[1].content).toBe('I\nAction: a2\nObservation: o2\nAction: a3\nObservation: o3\nAction: ');
  });

  it('keeps at most memorySize history lines', () => {
    const { messages, dropped } = agentboardPrompt({ ...BOARD, examples: [], goal: null, checkActions: null, checkInventory: false, instruction: '', memorySize: 2 }, ['o0', 'o1'], ['a1']);
    expect(dropped).toBe(1);
    expect(messages[1].content).toBe('Action: a1\nObservation: o1\nAction: ');
  });

  it('sends no history when even the preamble does not fit (upstream would loop forever)', () => {
    const { messages, dropped } = agentboardPrompt({ ...BOARD, contextLength: 10, maxTokens: 5 }, ['o0', 'o1'], ['a1']);
    expect(dropped).toBe(3);
    expect(messages[1].content.endsWith('inventory\n\nAction: ')).toBe(true);
  });

  it('estimates tokens as ceil(chars / 4), plus roles and 3 for the reply', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateMessageTokens([{ role: 'system', content: 'abcdefgh' }, { role: 'user', content: 'x' }])).toBe(3 + 2 + 2 + 1 + 1);
  });

  it('takes the first line of an API model reply as the action', () => {
    expect(parseAgentBoardReply('go to red ball 1')).toBe('go to red ball 1');
    expect(parseAgentBoardReply('go to red ball 1\nThis gets me closer.')).toBe('go to red ball 1');
    expect(parseAgentBoardReply(' pickup b1 ')).toBe(' pickup b1 ');
  });

  it('parses open-model replies as AgentBoard does', () => {
    expect(parseOpenModelAction('Thought: the ball is ahead.\nAction: go to red ball 1')).toBe('go to red ball 1');
    expect(parseOpenModelAction('Here is the next action to take:\n\nmove forward')).toBe('move forward');
    expect(parseOpenModelAction('The best action is to turn left')).toBe('turn left');
    expect(parseOpenModelAction("'check valid actions'")).toBe('check valid actions');
    expect(parseOpenModelAction('turn right\nthen move')).toBe('turn right');
    expect(parseOpenModelAction('get_weather with Action Input: {"city": "Paris"}')).toBe('get_weather with Action Input: {"city": "Paris"}');
    // Quirk kept: an empty "Action:" line does not pick the next line.
    expect(parseOpenModelAction('Action:\nturn right')).toBe('Action:');
    expect(parseAgentBoardReply('Action: stack b1 b2', true)).toBe('stack b1 b2');
  });

  it('AgentBoard’s suite uses the prompt file, the first reply line, and AgentBoard sampling', () => {
    const plan = suiteById('agentboard').prompt({ manual: 'MANUAL', observations: ['o0'], actions: [] }, { agentboard: { system_msg: 'S', instruction: 'I', examples: [], goal: 'g' } });
    expect(plan.calls).toBe(1);
    expect(plan.messages(0, [])).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'IYou should perform actions to accomplish the goal: g\nYou should use the following commands for help when your action cannot be understood: check valid actions\nObservation: o0\nAction: ' },
    ]);
    expect(plan.action(['pickup b1\nmore'])).toBe('pickup b1');
    expect(plan.defaults).toEqual({ temperature: 0, maxTokens: 100, stop: ['\n'] });
    const bare = suiteById('agentboard').prompt({ manual: 'MANUAL', observations: ['o0'], actions: [] }, {});
    expect(bare.messages(0, [])[0]).toEqual({ role: 'system', content: 'You are a helpful assistant.' });
    // Without prompt-file fields the manual is the whole prompt head (as BabyAI's manual is), then one newline.
    expect(bare.messages(0, [])[1].content).toBe('MANUAL\nObservation: o0\nAction: ');
    const head = suiteById('agentboard').prompt({ manual: 'HEAD\n', observations: ['o0'], actions: [] }, { agentboard: { system_msg: 'SYS' } });
    expect(head.messages(0, [])).toEqual([
      { role: 'system', content: 'SYS' },
      { role: 'user', content: 'HEAD\nObservation: o0\nAction: ' },
    ]);
  });
});

describe('AgentBench prompt', () => {
  it('counts segments as AgentBench does', () => {
    expect(agentbenchSegments('')).toBe(0);
    expect(agentbenchSegments('hello world')).toBe(2);
    expect(agentbenchSegments('abcdefg')).toBe(1);
    expect(agentbenchSegments('abcdefg.')).toBe(2);
    expect(agentbenchSegments('abcdefghij')).toBe(2);
    expect(agentbenchSegments('x = 1;\n')).toBe(4);
    expect(agentbenchSegments('ls -1 /etc | wc -l')).toBe(9);
    expect(agentbenchSegments('Straße')).toBe(1);
    // Outside ASCII: values printed by AgentBench's own Session._calc_segments (src/server/task.py at
    // 41e6807, lines 85-108) run with python3 here.
    const upstream: [string, number][] = [
      ['日本語のテキストです。', 3],
      ['emoji 😀😀 ok', 4],
      ['𝐀𝐁𝐂𝐃𝐄𝐅𝐆𝐇 x', 3],
      ['tab\there\r\n', 4],
      ['ǅungla Ωmega ñandú', 3],
      ['a\ud800b', 3],
      ['ＡＢＣ１２３', 4],
      ['x'.repeat(20) + '\u00aa', 3],
    ];
    for (const [text, n] of upstream) expect(agentbenchSegments(text), text).toBe(n);
  });

  it('alternates agent replies and observations after the instruction', () => {
    expect(agentbenchConversation({ instruction: 'INSTR', observations: ['', 'out1'], actions: ['Think: x\n\nAct: finish'] })).toEqual([
      { role: 'user', content: 'INSTR' },
      { role: 'assistant', content: 'Think: x\n\nAct: finish' },
      { role: 'user', content: 'out1' },
    ]);
  });

  it('puts the acknowledgement between the instruction and the question (DB)', () => {
    expect(agentbenchConversation({ instruction: 'INSTR', observations: ['Q\nThe name of this table is t'], actions: [], ack: 'Ok.' })).toEqual([
      { role: 'user', content: 'INSTR' },
      { role: 'assistant', content: 'Ok.' },
      { role: 'user', content: 'Q\nThe name of this table is t' },
    ]);
    expect(agentbenchConversation({ instruction: 'INSTR', observations: ['Q'], actions: [] })).toEqual([{ role: 'user', content: 'INSTR\n\nQ' }]);
  });

  it('starts with the fixed opening turns of a task (OS one-shot), agent turns as assistant', () => {
    const opening = [
      { role: 'user' as const, content: 'INSTR + one-shot question' },
      { role: 'agent' as const, content: 'Act: bash' },
      { role: 'user' as const, content: 'The output of the OS:\n220' },
      { role: 'agent' as const, content: 'Act: answer(220)' },
    ];
    expect(agentbenchConversation({ instruction: 'unused', opening, observations: ['Now, I will start a new problem in a new OS. My problem is:\n\nP'], actions: [] })).toEqual([
      { role: 'user', content: 'INSTR + one-shot question' },
      { role: 'assistant', content: 'Act: bash' },
      { role: 'user', content: 'The output of the OS:\n220' },
      { role: 'assistant', content: 'Act: answer(220)' },
      { role: 'user', content: 'Now, I will start a new problem in a new OS. My problem is:\n\nP' },
    ]);
    const plan = suiteById('agentbench').prompt({ manual: 'M', observations: ['P', 'out'], actions: ['Act: finish'] }, { agentbench: { opening: opening.slice(0, 4) } });
    expect(plan.messages(0, []).map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
  });

  it('keeps the first message and the newest turns under the limit, with the notice', () => {
    const conversation = [
      { role: 'user' as const, content: 'instr' },
      { role: 'assistant' as const, content: 'aa' },
      { role: 'user' as const, content: 'oo' },
      { role: 'assistant' as const, content: 'bb' },
      { role: 'user' as const, content: 'pp' },
    ];
    const cut = [
      { role: 'user', content: 'instr\n\n[NOTICE] 2 messages are omitted.' },
      { role: 'assistant', content: 'bb' },
      { role: 'user', content: 'pp' },
    ];
    expect(truncateAgentBench(conversation, 4)).toEqual({ messages: cut, omitted: 2 });
    // The oldest kept turn would be a user turn: it goes too.
    expect(truncateAgentBench(conversation, 5)).toEqual({ messages: cut, omitted: 2 });
    expect(truncateAgentBench(conversation, 6)).toEqual({ messages: conversation, omitted: 0 });
    // Nothing fits: only the instruction and the notice.
    expect(truncateAgentBench(conversation, 2)).toEqual({ messages: [{ role: 'user', content: 'instr\n\n[NOTICE] 4 messages are omitted.' }], omitted: 4 });
  });

  it('uses 3,500 segments by default', () => {
    const long = 'word '.repeat(3600);
    const { messages, omitted } = agentbenchPrompt({ instruction: 'I', observations: ['', long, 'last'], actions: ['x', 'y'] });
    expect(omitted).toBe(2);
    expect(messages).toEqual([
      { role: 'user', content: 'I\n\n[NOTICE] 2 messages are omitted.' },
      { role: 'assistant', content: 'y' },
      { role: 'user', content: 'last' },
    ]);
  });

  it('AgentBench’s suite sends the raw reply as the action at temperature 0', () => {
    const plan = suiteById('agentbench').prompt({ manual: 'INSTR', observations: ['Q'], actions: [] }, { agentbench: { ack: 'Ok.' } });
    expect(plan.calls).toBe(1);
    expect(plan.messages(0, [])).toHaveLength(3);
    expect(plan.action(['Action: Operation\n```sql\nSELECT 1\n```'])).toBe('Action: Operation\n```sql\nSELECT 1\n```');
    expect(plan.defaults).toEqual({ temperature: 0 });
  });
});

describe("AgentBoard's reply parser, as its evaluation applies it", () => {
  // Replies and the actions AgentBoard's own parser returned for them (tests/fixtures/upstream/agentboard/parser).
  const cases = JSON.parse(readFileSync(new URL('../fixtures/upstream/agentboard/parser/cases.json', import.meta.url), 'utf8')) as { reply: string; action: string }[];
  it(`the suite takes from each of ${cases.length} replies the action upstream's parser took`, () => {
    const plan = suiteById('agentboard').prompt({ manual: 'M', observations: ['o0'], actions: [] }, {});
    expect(cases.map((c) => plan.action([c.reply]))).toEqual(cases.map((c) => c.action));
    // Asked for the first line instead, a reply that names its action is sent whole.
    expect(suiteById('agentboard').prompt({ manual: 'M', observations: ['o0'], actions: [] }, { agentboard: { openModelParser: false } }).action(['Action: turn left'])).toBe('Action: turn left');
  });
});
