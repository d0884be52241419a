/**
 * How many TGTs (single sign-on sessions) are live: the `tessera_tgts_live` gauge, read on every
 * metrics scrape. It must not visit every ticket, so an adapter may be approximate; each states its
 * precision next to its implementation.
 */
export interface LiveTgtCount {
  liveTgts(): Promise<number>;
}
