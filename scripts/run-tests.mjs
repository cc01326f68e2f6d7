#!/usr/bin/env node
/**
 * `npm test`: Vitest (unit, web and API tests on both engines) and Playwright (Chromium
 * against the built product) side by side, each line of their output marked with its runner;
 * the exit code is non-zero when either failed, and one run reports every failure. On a
 * 2-core machine side by side takes 14–15 minutes instead of 18–22 (decision 0071). The load
 * it doubles once failed the documents' tests: their job processes, nicer than the rest,
 * passed their time limits on the clock; a job's time is now its CPU time.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const runners = [
  { name: 'vitest', command: 'vitest', args: ['run'] },
  { name: 'browser', command: 'playwright', args: ['test'] },
];

/** The runners under way, and the signal that stopped the run, if one did. */
const under = new Set();
let stoppedBy;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stoppedBy = signal;
    for (const child of under) child.kill(signal);
  });
}

/** Runs one runner, its output's lines marked with its name; resolves to its exit code. */
function run({ name, command, args }) {
  const started = Date.now();
  const child = spawn(`node_modules/.bin/${command}`, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env,
  });
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      out.write(`[${name}] ${line}\n`);
    });
  }
  under.add(child);
  return new Promise((resolve) => {
    child.on('error', (error) => {
      process.stderr.write(`[${name}] could not start: ${error.message}\n`);
      resolve({ name, code: 1, seconds: 0 });
    });
    child.on('close', (code, signal) => {
      under.delete(child);
      resolve({ name, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000 });
    });
  });
}

const results = await Promise.all(runners.map(run));
for (const { name, code, seconds } of results) {
  process.stdout.write(
    `${name}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds.toFixed(0)} s\n`,
  );
}
process.exitCode = stoppedBy || results.some(({ code }) => code !== 0) ? 1 : 0;
