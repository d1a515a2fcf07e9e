/**
 * The OS environment's part of vite's dev and preview servers (Node only, the catalogue's
 * `vitePlugins` line): the Linux backend's image under /os-image/ when it is built (npm run os:image).
 */
import type { Plugin } from 'vite';
import { osImagePlugin } from './linux/image/serve.ts';
import { osImageDir } from './linux/imageDir.ts';

export const vitePlugins = async (): Promise<Plugin[]> => [osImagePlugin(osImageDir())];
