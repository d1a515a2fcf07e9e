import { mount } from 'svelte';
import App from './App.svelte';
import { registerEnv } from '../envs/index.ts';
import extraEnvs from 'virtual:extra-envs';
import './app.css';
import { router } from './lib/router.svelte.ts';
import { prepareOpenedLink } from './lib/prepareTask.ts';

// Environments the build adds (the browser tests' own in their build: vite.config.ts extraEnvs).
for (const line of extraEnvs) registerEnv(line);

prepareOpenedLink(router.route);
mount(App, { target: document.getElementById('app')! });
