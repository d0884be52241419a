import { z } from 'zod';
import { flag, integerFrom, section } from './setting-schemas.js';

/** Where the health and metrics endpoints listen (docs/protocol.md §10). */
export const adminSchema = section({
  host: z
    .string({ error: 'expected a host name or IP address' })
    .min(1, { error: 'expected a host name or IP address' })
    .default('127.0.0.1')
    .describe('Address the admin listener (`admin.port`) listens on; keep it off the public network.'),
  port: integerFrom(0, 65535)
    .optional()
    .describe('Serve `/health/live`, `/health/ready` and `/metrics` on this port (plain HTTP) and not on `server.port`; 0 picks a free one. Unset: they are served on `server.port`, outside `server.basePath`.'),
});

export const healthSchema = section({
  timeoutMs: z
    .number({ error: 'expected a number of milliseconds from 1 to 60000' })
    .int({ error: 'expected a whole number of milliseconds' })
    .min(1, { error: 'expected a number of milliseconds from 1 to 60000' })
    .max(60_000, { error: 'expected a number of milliseconds from 1 to 60000' })
    .default(2000)
    .describe('How long `/health/ready` waits for its checks (storage, LDAP; run at once); a component silent that long is reported down (503). Keep it below the probe timeout.'),
});

export const metricsSchema = section({
  enabled: flag()
    .default(true)
    .describe('Count and time requests, and serve them in Prometheus text format at `/metrics`, next to the health endpoints. Off: nothing is counted and `/metrics` is 404.'),
});

export type AdminConfig = z.output<typeof adminSchema>;
