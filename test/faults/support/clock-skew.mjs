// Preloaded (node --import) into a tessera process started as an operator starts it, to make its
// clock run TEST_CLOCK_SKEW_MS ahead (or, negative, behind), as a machine's clock that is off: the
// Clock port reads Date.now, so every expiry that node judges, and every expiry it writes, is off by
// that much. Plain JavaScript, so the process loads tessera as built, with no TypeScript loader.
// Test-only: the production entry point knows nothing of it.
import process from 'node:process';

const skewMs = Number(process.env['TEST_CLOCK_SKEW_MS'] ?? '0');
if (!Number.isFinite(skewMs)) throw new Error('TEST_CLOCK_SKEW_MS: expected a number of milliseconds');
const systemNow = Date.now.bind(Date);
Date.now = () => systemNow() + skewMs;
