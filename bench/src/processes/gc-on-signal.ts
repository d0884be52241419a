import { writeFileSync } from 'node:fs';

/**
 * Preloaded (node --expose-gc --import) into the tessera whose memory is measured, and into no
 * other: on SIGUSR2 it runs a full garbage collection, then writes process.memoryUsage() as JSON to
 * the file named by BENCH_GC_REPORT (not TESSERA_*: those are settings), so the bench reads the RSS after GC without changing
 * the server.
 */
const gc = (globalThis as { gc?: () => void }).gc;
const report = process.env['BENCH_GC_REPORT'];
if (gc === undefined || report === undefined) throw new Error('gc-on-signal needs node --expose-gc and BENCH_GC_REPORT');
process.on('SIGUSR2', () => {
  gc();
  writeFileSync(report, JSON.stringify(process.memoryUsage()));
});
