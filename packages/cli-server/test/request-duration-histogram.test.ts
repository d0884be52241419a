import { expect } from 'chai';
import { Histogram, Registry, type RegistryContentType } from 'prom-client';
import { RequestDurationHistogram } from '@tessera/cli-server';

const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const NAME = 'tessera_http_request_duration_seconds';
const HELP = 'Time to answer a request, by method, route pattern and status.';

/** Observations in an interleaved order: series first seen at different times, values on a bound, between bounds, under the first and above the last. */
const OBSERVATIONS: [string, string, number, number][] = [
  ['POST', '/cas/v1/tickets', 201, 0.003],
  ['GET', '/cas/oidc/me', 200, 0.005],
  ['POST', '/cas/v1/tickets', 201, 0.0051],
  ['GET', 'unmatched', 404, 12],
  ['GET', '/cas/oidc/me', 401, 0.25],
  ['POST', '/cas/v1/tickets', 201, 10],
  ['GET', '/cas/oidc/me', 200, 0.75],
  ['OTHER', 'unmatched', 405, 0],
  ['POST', '/cas/v1/tickets', 400, 1e-9],
  ['GET', '/cas/oidc/me', 200, 2.5],
];

/** `library` with prom-client's Histogram and `ours` with the one counted in place, each given OBSERVATIONS. */
function filled<R extends Registry<RegistryContentType>>(library: R, ours: R): [R, R] {
  const histogram = new Histogram({ name: NAME, help: HELP, labelNames: ['method', 'route', 'status'], buckets: BOUNDS, registers: [library] });
  const counted = new RequestDurationHistogram(NAME, HELP, BOUNDS, ours);
  for (const [method, route, status, seconds] of OBSERVATIONS) {
    histogram.observe({ method, route, status: String(status) }, seconds);
    counted.observe(method, route, status, seconds);
  }
  return [library, ours];
}

describe('the request-duration histogram (counted in place, rendered as prom-client renders its Histogram)', () => {
  it("writes the exposition prom-client's Histogram writes for the same observations, line for line", async () => {
    const [library, ours] = filled(new Registry(), new Registry());
    const exposition = await ours.metrics();
    expect(exposition).to.equal(await library.metrics());
    expect(exposition).to.include(`${NAME}_bucket{le="0.005",method="GET",route="/cas/oidc/me",status="200"} 1`);
    expect(exposition).to.include(`${NAME}_bucket{le="10",method="GET",route="unmatched",status="404"} 0`);
    expect(exposition).to.include(`${NAME}_bucket{le="+Inf",method="GET",route="unmatched",status="404"} 1`);
    expect(exposition).to.include(`${NAME}_count{method="POST",route="/cas/v1/tickets",status="201"} 3`);
  });

  it('writes the same as prom-client in the OpenMetrics format', async () => {
    const openMetrics = () => {
      const registry = new Registry<RegistryContentType>();
      registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
      return registry;
    };
    const [library, ours] = filled(openMetrics(), openMetrics());
    expect(ours.contentType).to.equal(Registry.OPENMETRICS_CONTENT_TYPE);
    const exposition = await ours.metrics();
    expect(exposition).to.equal(await library.metrics());
    expect(exposition).to.include(`${NAME}_sum{method="GET",route="/cas/oidc/me",status="200"} 3.255`);
  });

  it("gives the registry's JSON what prom-client's Histogram gives", async () => {
    const [library, ours] = filled(new Registry(), new Registry());
    const strip = (metrics: { values: { labels: object; value: number; metricName?: string }[] }[]) => metrics.map(({ values }) => values.map(({ labels, value, metricName }) => ({ labels: { ...labels }, value, metricName })));
    expect(strip(await ours.getMetricsAsJSON())).to.deep.equal(strip(await library.getMetricsAsJSON()));
  });

  it('leaves out a duration that is not a finite number, and forgets every series on reset', async () => {
    const registry = new Registry();
    const counted = new RequestDurationHistogram(NAME, HELP, BOUNDS, registry);
    counted.observe('GET', '/cas/oidc/me', 200, 0.02);
    counted.observe('GET', '/cas/oidc/me', 200, Number.NaN);
    counted.observe('GET', '/cas/oidc/me', 200, Number.POSITIVE_INFINITY);
    const exposition = await registry.metrics();
    expect(exposition).to.include(`${NAME}_count{method="GET",route="/cas/oidc/me",status="200"} 1`);
    expect(exposition).to.include(`${NAME}_sum{method="GET",route="/cas/oidc/me",status="200"} 0.02`);
    registry.resetMetrics();
    expect(await registry.metrics()).to.equal(`# HELP ${NAME} ${HELP}\n# TYPE ${NAME} histogram\n`);
  });
});
