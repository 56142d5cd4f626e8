/**
 * `npm run build` (issue 17, decision 0181): everything a start needs, as one process tree, each part as soon as what
 * it needs is done, so the two cores work at once:
 *   web: Vite build → script inventory (PCI 6.4.3, before compression) → Brotli and gzip siblings
 *   console: Vite build → Brotli and gzip siblings
 *   server: the compiled server (scripts/build-server.ts)
 *   database: the migrated template a fresh data dir starts from (scripts/pglite-template.ts)
 * Every output line carries its part's name. When a part fails, the parts still running are stopped, nothing new
 * starts, and the build exits with 1 naming the part.
 *   node --import tsx scripts/build.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { buildScriptInventory } from '../apps/server/src/http/script-inventory.js';
import { buildServer } from './build-server.js';
import { compressDist } from './compress-dist.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const NICE = Number(process.env.BUILD_NICE ?? 5);

/** One part of the build: a command run as a child process, or a function run in this process. */
export type Step = { name: string; after?: string[] } & (
  { cmd: string[]; cwd?: string } | { fn: () => Promise<string | void> }
);

export interface StepsResult {
  ok: boolean;
  /** The part that failed first, when one did. */
  failed?: string;
  /** Milliseconds per part that ended. */
  ms: Record<string, number>;
}

/**
 * Runs the steps, each once every step named in its `after` has succeeded, the rest in parallel. Output lines are
 * written through `write` with the step's name in front. The first failure stops the running children (SIGTERM) and
 * keeps the steps not started from starting.
 */
export function runSteps(steps: Step[], write: (line: string) => void = (l) => console.log(l)): Promise<StepsResult> {
  const width = Math.max(...steps.map((s) => s.name.length));
  const tag = (name: string) => `[${name}]`.padEnd(width + 2);
  const pending = new Map(steps.map((s) => [s.name, s]));
  for (const s of steps) {
    for (const a of s.after ?? []) if (!pending.has(a)) throw new Error(`${s.name}: unknown step ${a}`);
  }
  const done = new Set<string>();
  const running = new Map<string, ChildProcess | null>();
  const ms: Record<string, number> = {};
  let failed: string | undefined;

  return new Promise((resolve) => {
    const settle = () => {
      if (running.size) return;
      if (!failed && pending.size) {
        // Nothing runs and nothing can start: a cycle in `after`.
        failed = [...pending.keys()][0];
        write(`${tag(failed!)} cannot start: its "after" steps never finish`);
      }
      if (failed || !pending.size) resolve({ ok: !failed, failed, ms });
    };
    const finish = (name: string, started: number, err?: unknown) => {
      running.delete(name);
      ms[name] = Math.round(performance.now() - started);
      if (err !== undefined && !failed) {
        failed = name;
        write(`${tag(name)} FAILED${err instanceof Error ? `: ${err.message}` : ''}`);
        for (const [other, child] of running) {
          if (child && child.exitCode === null) {
            write(`${tag(other)} stopped`);
            child.kill('SIGTERM');
          }
        }
      } else if (err === undefined) {
        done.add(name);
        write(`${tag(name)} done in ${(ms[name] / 1000).toFixed(1)} s`);
      }
      startReady();
      settle();
    };
    const lines = (name: string) => {
      let rest = '';
      return {
        push(chunk: Buffer | string) {
          const text = rest + chunk.toString();
          const parts = text.split('\n');
          rest = parts.pop() ?? '';
          for (const l of parts) if (l.trim()) write(`${tag(name)} ${l.trimEnd()}`);
        },
        end() {
          if (rest.trim()) write(`${tag(name)} ${rest.trimEnd()}`);
          rest = '';
        },
      };
    };
    const start = (s: Step) => {
      pending.delete(s.name);
      const started = performance.now();
      if ('fn' in s) {
        running.set(s.name, null);
        s.fn().then(
          (msg) => {
            if (msg) write(`${tag(s.name)} ${msg}`);
            finish(s.name, started);
          },
          (err: unknown) => finish(s.name, started, err ?? new Error('failed')),
        );
        return;
      }
      const [file, ...args] = s.cmd;
      const child = spawn(file!, args, { cwd: s.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
      running.set(s.name, child);
      if (s.nice && child.pid) {
        try {
          os.setPriority(child.pid, s.nice);
        } catch {
          /* not allowed here: same priority */
        }
      }
      const out = lines(s.name);
      const errOut = lines(s.name);
      child.stdout!.on('data', (c: Buffer) => out.push(c));
      child.stderr!.on('data', (c: Buffer) => errOut.push(c));
      child.once('error', (err) => {
        if (running.has(s.name)) finish(s.name, started, err);
      });
      child.once('close', (code, signal) => {
        out.end();
        errOut.end();
        if (!running.has(s.name)) return;
        if (code === 0) finish(s.name, started);
        else if (failed && signal) finish(s.name, started, null);
        else finish(s.name, started, new Error(signal ? `ended by ${signal}` : `exit code ${code}`));
      });
    };
    const startReady = () => {
      if (failed) return;
      for (const s of [...pending.values()]) {
        if ((s.after ?? []).every((a) => done.has(a))) start(s);
      }
    };
    startReady();
    settle();
  });
}

/** The product's build. */
export function productSteps(): Step[] {
  const vite = path.join(
    path.dirname(createRequire(path.join(ROOT, 'apps/web/package.json')).resolve('vite/package.json')),
    'bin/vite.js',
  );
  const tsx = ['--import', 'tsx'];
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  // The patient app, whose bytes on a phone's network are issue 17's budget, at Brotli's best (quality 11). The staff
  // console at quality 10: its files are 2-3 % larger and take a third of the time (1.9 s → 0.75 s for its 380 KB
  // entry on one core); quality 11 was most of the build's work after Vite.
  const compress = (app: string, brotliQuality?: number) => async () => {
    const s = await compressDist(path.join(ROOT, 'apps', app, 'dist'), { brotliQuality });
    return `precompressed: ${s.files} files, ${kb(s.bytes)} → br ${kb(s.brBytes)}, gz ${kb(s.gzBytes)}`;
  };
  return [
    // First: creating the database is the longest part (PGlite's initdb and the migrations, ~4 s of one core).
    { name: 'database', cmd: [process.execPath, ...tsx, 'scripts/pglite-template.ts'] },
    // The Vite builds and their compression take less time than the database: on a busy machine they yield to it.
    { name: 'web', cmd: [process.execPath, vite, 'build'], cwd: path.join(ROOT, 'apps/web'), nice: NICE },
    { name: 'console', cmd: [process.execPath, vite, 'build'], cwd: path.join(ROOT, 'apps/console'), nice: NICE },
    {
      name: 'web:inventory',
      after: ['web'],
      fn: async () => {
        const inv = buildScriptInventory(path.join(ROOT, 'apps/web/dist'));
        const scripts = inv.assets.filter((a) => a.kind === 'script').length;
        return `script inventory: ${scripts} scripts and ${inv.assets.length - scripts} stylesheets with SRI, ${inv.inlineScripts.length} inline script(s) by CSP hash`;
      },
    },
    { name: 'web:compress', after: ['web:inventory'], fn: compress('web') },
    { name: 'console:compress', after: ['console'], fn: compress('console', 10) },
    { name: 'server', fn: async () => `${await buildServer()} files compiled` },
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const started = performance.now();
  const result = await runSteps(productSteps());
  const s = ((performance.now() - started) / 1000).toFixed(1);
  if (result.ok) console.log(`build: done in ${s} s`);
  else {
    console.error(`build: FAILED in ${s} s (${result.failed})`);
    process.exit(1);
  }
}
