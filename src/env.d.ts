/// <reference types="svelte" />
/// <reference types="vite/client" />
declare const __APP_VERSION__: string;

/** Catalogue lines the build adds (vite.config.ts extraEnvs): the browser tests' own environments in their build, else none. */
declare module 'virtual:extra-envs' {
  const lines: readonly import('../envs/index.ts').EnvEntry[];
  export default lines;
}
