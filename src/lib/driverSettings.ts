/**
 * The settings a person gives for a non-human driver, and turning them into a
 * running driver. The API key stays in this tab's sessionStorage: it is never
 * written to IndexedDB, put in a URL, or recorded in a trajectory.
 *
 * In-browser engines (WebLLM on WebGPU, wllama on any CPU) are made once per run
 * (`prepareEngine`) and shared by its episodes, so a batch loads the model once;
 * wllama's adapter is imported only when chosen.
 */
import type { EnvDefinition, TaskInfo } from '../../envs/core/types.ts';
import { createOpenAIClient } from '../../runtime/models/openai.ts';
import { WebLLMClient } from '../../runtime/models/webllm.ts';
import type { ChatClient, ChatRequest, ChatResult } from '../../runtime/models/types.ts';
import type { GgufSource, WllamaClient } from '../../runtime/models/wllama.ts';
import { modelDriver, policyDriver, type Driver } from '../../runtime/drivers/driver.ts';

export type DriverKindChoice = 'random' | 'oracle' | 'model' | 'webllm' | 'wllama';

/** Where wllama's GGUF file comes from: a URL, a file picked now, or one stored in the browser earlier. */
export type WllamaSourceChoice = 'url' | 'file' | 'cache';

export interface DriverSettings {
  kind: DriverKindChoice;
  /** Pause before each scripted action, so people can follow a demo. */
  delayMs: number;
  baseUrl: string;
  model: string;
  apiKey: string;
  temperature: string;
  maxTokens: string;
  stream: boolean;
  webllmModel: string;
  wllamaSource: WllamaSourceChoice;
  wllamaUrl: string;
  /** Key of a model in the browser's model cache (runtime/models/gguf-cache.ts). */
  wllamaCacheKey: string;
  /** Context size in tokens for wllama (n_ctx). */
  wllamaContext: number;
}

const STORAGE_KEY = 'agentplay.driver';
const KEY_KEY = 'agentplay.apiKey';

export const DEFAULT_SETTINGS: DriverSettings = {
  kind: 'random',
  delayMs: 300,
  baseUrl: 'http://127.0.0.1:8080/v1',
  model: '',
  apiKey: '',
  temperature: '',
  maxTokens: '',
  stream: true,
  webllmModel: 'Llama-3.2-1B-Instruct-q4f16_1-MLC',
  wllamaSource: 'url',
  wllamaUrl: '',
  wllamaCacheKey: '',
  wllamaContext: 4096,
};

export function loadSettings(): DriverSettings {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<DriverSettings>;
    return { ...DEFAULT_SETTINGS, ...saved, apiKey: sessionStorage.getItem(KEY_KEY) ?? '' };
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export function saveSettings(settings: DriverSettings): void {
  const { apiKey, ...rest } = settings;
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(rest));
  if (apiKey) sessionStorage.setItem(KEY_KEY, apiKey);
  else sessionStorage.removeItem(KEY_KEY);
}

/** A number field: empty means "the benchmark's default". */
function optionalNumber(text: string, name: string): number | undefined {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) throw new Error(`${name} must be a number.`);
  return n;
}

/** An in-browser engine made for a run: the client its episodes share, and how to load and free it. */
export interface Engine {
  client: ChatClient;
  /** Loads the model (download or cache, then start-up); `signal` cancels. Resolves when ready. */
  load(signal?: AbortSignal): Promise<void>;
  /** What was loaded, for the page: file, size, load time, where from (wllama only). */
  loaded(): string | null;
  /** Generated tokens per second of the latest reply, where the engine measures it. */
  tokensPerSecond(): number | null;
  unload(): Promise<void>;
}

/**
 * One request at a time: an in-browser engine has one model in one worker, so a batch's
 * episodes take turns at it (their environments still step in between).
 */
function oneAtATime(client: ChatClient): ChatClient {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    kind: client.kind,
    model: client.model,
    endpointHost: client.endpointHost,
    complete(request: ChatRequest): Promise<ChatResult> {
      const turn = queue.then(() => client.complete(request));
      queue = turn.catch(() => undefined);
      return turn;
    },
  };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 2 : 0)} MB`;

/**
 * The in-browser engine the settings ask for, or null for drivers without one. `file` is the
 * GGUF the person picked (a File cannot be kept in settings). Nothing is downloaded until load().
 */
export async function prepareEngine(settings: DriverSettings, options: { file?: File | null; onProgress?: (fraction: number, text: string) => void } = {}): Promise<Engine | null> {
  if (settings.kind === 'webllm') {
    if (!settings.webllmModel.trim()) throw new Error('Choose a WebLLM model id.');
    const client = new WebLLMClient({ model: settings.webllmModel.trim(), onProgress: options.onProgress });
    return {
      client: oneAtATime(client),
      load: async () => void (await client.load()),
      loaded: () => null,
      tokensPerSecond: () => null,
      unload: async () => undefined,
    };
  }
  if (settings.kind !== 'wllama') return null;
  let source: GgufSource;
  if (settings.wllamaSource === 'file') {
    if (!options.file) throw new Error('Pick a GGUF model file.');
    source = { kind: 'file', file: options.file, name: options.file.name };
  } else if (settings.wllamaSource === 'cache') {
    if (!settings.wllamaCacheKey) throw new Error('Choose a model stored in this browser, or give a URL or a file.');
    source = { kind: 'cache', key: settings.wllamaCacheKey };
  } else {
    if (!settings.wllamaUrl.trim()) throw new Error('Give the URL of a GGUF model file.');
    source = { kind: 'url', url: settings.wllamaUrl.trim() };
  }
  // The adapter (and, on load, wllama and its wasm) only now: a chunk of its own.
  const { createWllamaClient } = await import('../../runtime/models/wllama.ts');
  const client: WllamaClient = createWllamaClient({ source, onProgress: options.onProgress, contextSize: settings.wllamaContext || undefined });
  return {
    client: oneAtATime(client),
    load: async (signal) => void (await client.load({ signal })),
    loaded: () => {
      const info = client.info;
      if (!info) return null;
      const from = info.fromCache ? 'from this browser’s model cache' : info.source === 'file' ? 'from the picked file (now kept in this browser)' : 'downloaded (now kept in this browser)';
      return `${info.file} (${mb(info.bytes)}) loaded in ${(info.loadMs / 1000).toFixed(1)} s, ${from}; ${info.threads} CPU thread${info.threads === 1 ? '' : 's'}`;
    },
    tokensPerSecond: () => client.lastStats?.tokensPerSecond ?? null,
    unload: () => client.unload(),
  };
}

/** Check the settings and build the driver for one episode (model clients are created here, before the episode starts). */
export function prepareDriver(settings: DriverSettings, env: EnvDefinition, task: TaskInfo, seed: number, engine: Engine | null = null): Driver {
  if (settings.kind === 'random' || settings.kind === 'oracle') return policyDriver(settings.kind, env, task, { seed, delayMs: settings.delayMs });
  const temperature = optionalNumber(settings.temperature, 'Temperature');
  const maxTokens = optionalNumber(settings.maxTokens, 'Max tokens');
  let client: ChatClient;
  if (settings.kind === 'model') {
    if (!settings.baseUrl.trim()) throw new Error('Give the endpoint’s base URL (e.g. http://127.0.0.1:8080/v1).');
    if (!settings.model.trim()) throw new Error('Give the model name the endpoint serves.');
    client = createOpenAIClient({ baseUrl: settings.baseUrl.trim(), model: settings.model.trim(), apiKey: settings.apiKey || undefined, stream: settings.stream });
  } else {
    if (!engine) throw new Error('The in-browser engine was not prepared.');
    client = engine.client;
  }
  return modelDriver(client, env, task, { temperature, maxTokens, stream: settings.stream });
}
