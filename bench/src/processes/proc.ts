import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * What Linux's /proc says about another process: its CPU time (every thread, those that ended
 * included) and its resident set. Read from outside, so the measured server runs unchanged.
 */

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on nearly every Linux). */
let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    const text = execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim();
    ticksPerSecond = Number(text);
    if (!Number.isInteger(ticksPerSecond) || ticksPerSecond <= 0) throw new Error(`getconf CLK_TCK printed "${text}"`);
  }
  return ticksPerSecond;
}

/** User + system CPU time of process `pid` so far, in µs (resolution: one clock tick, 10 ms). */
export function cpuMicros(pid: number): number {
  return (cpuTicks(readProc(pid, 'stat')) * 1_000_000) / clockTicks();
}

/**
 * User + system CPU time of process `pid`'s main thread so far, in µs: the JavaScript, and the GC work
 * V8 does on it. The rest of the process's CPU is its helper threads' (libuv's pool, V8's GC helpers).
 */
export function mainThreadCpuMicros(pid: number): number {
  return (cpuTicks(readProc(pid, `task/${pid}/stat`)) * 1_000_000) / clockTicks();
}

/** Resident set size of process `pid`, in bytes. */
export function rssBytes(pid: number): number {
  return residentKiB(readProc(pid, 'status')) * 1024;
}

/** utime + stime (fields 14 and 15) of a /proc/<pid>/stat line; the command name may hold spaces and parentheses. */
export function cpuTicks(statLine: string): number {
  const afterName = statLine.slice(statLine.lastIndexOf(')') + 2).split(' ');
  // afterName[0] is field 3 (state), so field n is afterName[n - 3].
  const utime = Number(afterName[11]);
  const stime = Number(afterName[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`not a /proc/<pid>/stat line: ${statLine.slice(0, 80)}`);
  return utime + stime;
}

/** The VmRSS of a /proc/<pid>/status text, in KiB. */
export function residentKiB(status: string): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!match) throw new Error('no VmRSS line in /proc/<pid>/status');
  return Number(match[1]);
}

function readProc(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch (error) {
    throw new Error(`cannot read /proc/${pid}/${file} (the bench measures servers through Linux's /proc)`, { cause: error });
  }
}
