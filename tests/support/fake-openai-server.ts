/**
 * A local OpenAI-compatible chat server for tests: it answers on a loopback port
 * only and its behaviour is chosen by the requested model name:
 *   hanoi-solver     plays SmartPlay's Tower of Hanoi well: it reads the current rods from
 *                    the prompt and answers the optimal move (thinks aloud on question 1)
 *   echo:TEXT        always answers TEXT
 *   key-echo         plays as hanoi-solver but ends each reply with the API key it was sent (a hostile endpoint)
 *   rate-limit-once  the first request of each conversation step gets 429 with Retry-After: 1, then plays as hanoi-solver
 *   server-error     always 500
 *   slow             answers after 3 s
 *   malformed        200 with a body that is not JSON
 *   context-limit    400 saying the prompt exceeds the context length
 * Options for every model: `delayMs` answers after a fixed delay (a model's thinking time, for
 * throughput benchmarks), `failFirst: N` answers the first N requests with 500 (an endpoint
 * that is down for a while); `maxInFlight` in the result is the most requests open at once.
 * Streaming (stream: true) is answered as server-sent events. CORS is open, so the app in
 * Chromium can call it. Run: npx tsx tests/support/fake-openai-server.ts --port 5999
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HANOI_ACTIONS, nextOptimalMove } from '../../envs/hanoi/index.ts';

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  // The app is cross-origin isolated (COEP require-corp): a CORS response is enough, and this says it plainly.
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
  stream?: boolean;
}

/** Read the rods from the last "current step observation" in a SmartPlay prompt: rod of each disk, smallest first. */
export function rodsFromPrompt(messages: ChatBody['messages']): number[] | null {
  const current = [...messages].reverse().find((m) => m.content.startsWith('current step observation:'));
  if (!current) return null;
  const rods: number[] = [];
  for (const [rod, name] of ['A', 'B', 'C'].entries()) {
    const line = current.content.match(new RegExp(`- ${name}: \\|bottom, \\[([^\\]]*)\\], top\\|`));
    if (!line) return null;
    for (const d of line[1].split(',').map((x) => x.trim()).filter(Boolean)) rods[Number(d)] = rod;
  }
  return rods;
}

function hanoiReply(body: ChatBody): string {
  const last = body.messages[body.messages.length - 1]?.content ?? '';
  if (!last.startsWith('Choose the best executable action')) return 'Move the smallest disk so that the stack can be rebuilt on rod C.';
  const rods = rodsFromPrompt(body.messages);
  const move = rods ? nextOptimalMove(rods) : null;
  return move === null ? 'I am not sure.' : `The best action: ${HANOI_ACTIONS[move]}`;
}

function send(res: ServerResponse, status: number, body: string, type = 'application/json', headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...CORS, 'Content-Type': type, ...headers });
  res.end(body);
}

function answer(res: ServerResponse, body: ChatBody, text: string): void {
  const usage = { prompt_tokens: Math.ceil(JSON.stringify(body.messages).length / 4), completion_tokens: Math.ceil(text.length / 4) };
  if (!body.stream) {
    send(res, 200, JSON.stringify({ id: 'fake', object: 'chat.completion', model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage }));
    return;
  }
  res.writeHead(200, { ...CORS, 'Content-Type': 'text/event-stream' });
  for (const piece of text.match(/.{1,8}/gs) ?? []) {
    res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`);
  }
  res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage })}\n\n`);
  res.end('data: [DONE]\n\n');
}

export interface FakeServerOptions {
  /** Answer every request after this many milliseconds. */
  delayMs?: number;
  /** Answer the first N requests with HTTP 500. */
  failFirst?: number;
}

export interface FakeServer {
  url: string;
  server: Server;
  requests: ChatBody[];
  /** Requests answered with the failFirst 500s so far. */
  readonly failed: number;
  /** The most requests open at the same time so far. */
  readonly maxInFlight: number;
}

export function startFakeOpenAI(port = 0, options: FakeServerOptions = {}): Promise<FakeServer> {
  const requests: ChatBody[] = [];
  const limited = new Set<string>();
  let failed = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST') {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      res.on('close', () => inFlight--);
    }
    const delay = options.delayMs ?? 0;
    if (delay > 0 && req.method === 'POST') {
      const respond = handle;
      return void setTimeout(() => respond(req, res), delay);
    }
    handle(req, res);
  });
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'OPTIONS') return send(res, 204, '');
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return send(res, 404, '{"error":{"message":"not found"}}');
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body: ChatBody;
      try {
        body = JSON.parse(raw) as ChatBody;
      } catch {
        return send(res, 400, '{"error":{"message":"bad json"}}');
      }
      requests.push(body);
      if (failed < (options.failFirst ?? 0)) {
        failed++;
        return send(res, 500, '{"error":{"message":"the server is warming up"}}');
      }
      const model = body.model ?? '';
      if (model.startsWith('echo:')) return answer(res, body, model.slice(5));
      switch (model) {
        case 'hanoi-solver':
          return answer(res, body, hanoiReply(body));
        case 'key-echo':
          return answer(res, body, `${hanoiReply(body)} (sent with ${String(req.headers.authorization ?? '').replace(/^Bearer /, '')})`);
        case 'rate-limit-once': {
          const key = JSON.stringify(body.messages);
          if (!limited.has(key)) {
            limited.add(key);
            return send(res, 429, '{"error":{"message":"slow down"}}', 'application/json', { 'Retry-After': '1' });
          }
          return answer(res, body, hanoiReply(body));
        }
        case 'server-error':
          return send(res, 500, '{"error":{"message":"boom"}}');
        case 'slow':
          return void setTimeout(() => answer(res, body, hanoiReply(body)), 3000);
        case 'malformed':
          return send(res, 200, '{"choices": [', 'application/json');
        case 'context-limit':
          return send(res, 400, '{"error":{"message":"This model\'s maximum context length is 4096 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the prompt."}}');
        default:
          return send(res, 404, JSON.stringify({ error: { message: `The model ${model} does not exist` } }));
      }
    });
  };
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        server,
        requests,
        get failed() {
          return failed;
        },
        get maxInFlight() {
          return maxInFlight;
        },
      }),
    ),
  );
}

// Run as a program (Playwright starts it; the eval bench runs it in its own process): --port N [--delay-ms N]
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const { url } = await startFakeOpenAI(arg('--port') ?? 5999, { delayMs: arg('--delay-ms') });
  console.log(`fake OpenAI-compatible server on ${url}`);
}
