import type { ProxyCallback, ProxyCallbackOutcome, ProxyCallbackRequest } from '@tessera/core/modules/proxy';

/** A proxy's callback that takes every PGT it is given, or answers `outcome`; `calls` keeps each delivery. */
export class RecordingProxyCallback implements ProxyCallback {
  readonly calls: ProxyCallbackRequest[] = [];
  outcome: ProxyCallbackOutcome = { delivered: true };
  deliver(request: ProxyCallbackRequest): Promise<ProxyCallbackOutcome> {
    this.calls.push(request);
    return Promise.resolve(this.outcome);
  }
}
