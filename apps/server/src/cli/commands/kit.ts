import { InvalidArgumentError, type Command } from 'commander';
import type { CliEnv } from '../api-client.js';
import { forTerminal, jsonForTerminal } from '../format.js';

/** What every command group gets from main.ts: the program to add to, the server and token, and the printer. */
export interface Cli {
  program: Command;
  env: CliEnv;
  /** JSON with --json, else the human text; both made safe for a terminal. */
  print(json: unknown, human: () => string): void;
}

export function createCli(program: Command, env: CliEnv): Cli {
  return {
    program,
    env,
    print: (json, human) => console.log(program.opts().json ? jsonForTerminal(json) : forTerminal(human())),
  };
}

export const positiveInt = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v) || Number(v) < 1)
    throw new InvalidArgumentError(`${name} must be a whole number of at least 1.`);
  return Number(v);
};

export const isoDate = (name: string) => (v: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v)))
    throw new InvalidArgumentError(`${name} must be a date like 2026-03-31.`);
  return v;
};

/** The filters the payments export and the funnel share, as the report routes name them. */
export const reportQuery = (o: { from?: string; to?: string; coordinator?: string }) => ({
  from: o.from,
  to: o.to,
  coordinatorId: o.coordinator,
});
