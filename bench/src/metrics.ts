/** The value of an unlabelled sample `name` in a Prometheus text exposition. */
export function sampleValue(exposition: string, name: string): number {
  const line = exposition.split('\n').find((text) => text.startsWith(`${name} `));
  const value = Number(line?.slice(name.length + 1).split(' ')[0]);
  if (line === undefined || !Number.isFinite(value)) throw new Error(`no sample ${name} in the metrics`);
  return value;
}

/** Scrapes `url` (tessera's /metrics) and reads one unlabelled sample. */
export async function scrapeSample(url: string, name: string): Promise<number> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return sampleValue(await response.text(), name);
}
