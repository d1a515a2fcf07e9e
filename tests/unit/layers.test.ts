/**
 * The house's layers (issue 27 §3): environments import nothing from the runtime (imports only
 * go down), production code imports no test module, and shared code names no environment (it
 * asks the catalogue).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { CATALOGUE } from '../../envs/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CODE = /\.(ts|mts|js|mjs|svelte)$/;

/** Code files under `dir` (relative to the repository), data and documentation left out. */
function codeFiles(dir: string): string[] {
  return (readdirSync(join(ROOT, dir), { recursive: true }) as string[])
    .filter((f) => CODE.test(f) && !f.split(/[\\/]/).includes('node_modules'))
    .map((f) => join(dir, f));
}

/** Every module specifier a file imports or re-exports, statically or with import(). */
export function importSpecifiers(text: string): string[] {
  const specs: string[] = [];
  const patterns = [/\bfrom\s*(['"])([^'"]+)\1/g, /\bimport\s*(['"])([^'"]+)\1/g, /\bimport\s*\(\s*(['"`])([^'"`]+)\1/g];
  for (const re of patterns) for (const m of text.matchAll(re)) specs.push(m[2]);
  return specs;
}

/** The text without its comments (strings kept: a `//` inside quotes is not a comment). */
export function withoutComments(text: string): string {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === quote) quote = null;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '<' && text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      i = end < 0 ? text.length : end + 2;
    } else {
      if (c === "'" || c === '"' || c === '`') quote = c;
      out += c;
    }
  }
  return out;
}

describe('environments import nothing from the runtime', () => {
  it('finds the import forms it checks', () => {
    const text = `import a from '../x.ts';\nimport type { B } from "./y.ts";\nexport * from '../../runtime/z.ts';\nimport './side.ts';\nconst m = import('../lazy.ts');`;
    expect(importSpecifiers(text)).toEqual(['../x.ts', './y.ts', '../../runtime/z.ts', './side.ts', '../lazy.ts']);
  });

  it('no file under envs/ imports a module under runtime/', () => {
    const runtime = join(ROOT, 'runtime');
    const offending = codeFiles('envs').flatMap((file) =>
      importSpecifiers(readFileSync(join(ROOT, file), 'utf8'))
        .filter((s) => s.startsWith('.') && !relative(runtime, resolve(ROOT, dirname(file), s)).startsWith('..'))
        .map((s) => `${file} → ${s}`),
    );
    expect(offending).toEqual([]);
  });
});

describe('production code imports no test module', () => {
  it('no file under runtime/, src/ or scripts/ imports a module under tests/', () => {
    const tests = join(ROOT, 'tests');
    const offending = ['runtime', 'src', 'scripts']
      .flatMap(codeFiles)
      .flatMap((file) =>
        importSpecifiers(readFileSync(join(ROOT, file), 'utf8'))
          .filter((s) => s.startsWith('.') && !relative(tests, resolve(ROOT, dirname(file), s)).startsWith('..'))
          .map((s) => `${file} → ${s}`),
      );
    expect(offending).toEqual([]);
  });
});

describe('shared code names no environment', () => {
  const ids = CATALOGUE.map((e) => e.id);
  const literal = new RegExp(`(['"\`])(${ids.join('|')})\\1`);
  /** Benchmarks measure named environments on purpose; tests are not shared code. */
  const exempt = (file: string) => /bench/i.test(file) || /\.test\.ts$/.test(file);

  it('knows the built-in ids', () => {
    expect(ids.length).toBeGreaterThan(0);
    expect(withoutComments(`const a = 'x'; // 'hanoi'\n/* "pddl" */ const b = "http://x";`)).toBe(`const a = 'x'; \n const b = "http://x";`);
  });

  it('runtime/, src/ and scripts/ hold no built-in environment id as a string literal', () => {
    const offending = ['runtime', 'src', 'scripts']
      .flatMap(codeFiles)
      .filter((f) => !exempt(f))
      .flatMap((file) =>
        withoutComments(readFileSync(join(ROOT, file), 'utf8'))
          .split('\n')
          .filter((line) => literal.test(line))
          .map((line) => `${file}: ${line.trim()}`),
      );
    expect(offending).toEqual([]);
  });
});
