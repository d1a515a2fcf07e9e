import { mount } from 'svelte';
import App from './App.svelte';
import { registerEnv } from '../envs/index.ts';
import extraEnvs from 'virtual:extra-envs';
import './app.css';

// Environments the build adds (the browser tests' own in their build: vite.config.ts extraEnvs).
for (const line of extraEnvs) registerEnv(line);

mount(App, { target: document.getElementById('app')! });
