import type { LogoutDelivery, LogoutRequestSender } from '@tessera/core/modules/login';

/** Keeps every logout request it is handed, delivering none. */
export class RecordingLogoutSender implements LogoutRequestSender {
  readonly sent: LogoutDelivery[] = [];
  send(delivery: LogoutDelivery): void {
    this.sent.push(delivery);
  }
}
