/**
 * The driver description recorded in an episode header (EpisodeHeader.driver). Never
 * holds an API key or a URL: only the endpoint's host.
 */
import type { DriverInfo } from '../records.ts';
import type { PolicyKind } from '../../envs/core/policies.ts';
import type { ChatClient } from '../models/types.ts';
import type { Sampling } from './modelDriver.ts';

/** For a model run under suite `suite` (its id): pass the sampling the run uses (resolveSampling) so the record shows the suite's defaults too. */
export function modelDriverInfo(client: ChatClient, suite: string, sampling: Sampling): DriverInfo {
  const params: { temperature?: number; maxTokens?: number } = {};
  if (sampling.temperature !== undefined) params.temperature = sampling.temperature;
  if (sampling.maxTokens !== undefined) params.maxTokens = sampling.maxTokens;
  const info: DriverInfo = {
    kind: 'model',
    name: client.model,
    engine: client.kind,
    params,
    protocol: suite,
  };
  if (client.endpointHost) info.endpointHost = client.endpointHost;
  return info;
}

export function scriptedDriverInfo(kind: PolicyKind | 'script', options: { name?: string; seed?: number } = {}): DriverInfo {
  const info: DriverInfo = { kind, name: options.name ?? (kind === 'script' ? 'script' : `${kind} policy`) };
  if (kind === 'random' && options.seed !== undefined) info.seed = options.seed;
  return info;
}
