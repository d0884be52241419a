import { Argon2PasswordHasher } from '@tessera/core';

/**
 * `node argon2-raw-main.js SECONDS IN_FLIGHT` with `PHC\nPASSWORD` on stdin: core's argon2id
 * verify, IN_FLIGHT at a time for SECONDS, in a process of its own with the thread pool it was
 * given (UV_THREADPOOL_SIZE), as the server's logins run it. Prints `{ verifies, seconds, cpuMicros }`.
 */
const [seconds, inFlight] = process.argv.slice(2).map(Number);
let input = '';
for await (const chunk of process.stdin) input += String(chunk);
const [phc = '', password = ''] = input.split('\n');
const hasher = new Argon2PasswordHasher();
const deadline = performance.now() + (seconds ?? 0) * 1000;
let verifies = 0;
const worker = async (): Promise<void> => {
  while (performance.now() < deadline) {
    if (!(await hasher.verify(phc, password))) throw new Error('argon2 verify refused the right password');
    verifies += 1;
  }
};
const cpuBefore = process.cpuUsage();
const started = performance.now();
await Promise.all(Array.from({ length: inFlight ?? 1 }, worker));
const elapsed = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(`${JSON.stringify({ verifies, seconds: elapsed, cpuMicros: cpu.user + cpu.system })}\n`);
