import type { Logger } from 'pino';

/** The lines an operator watches for: ready, stopping, and stopped, the last only of a server that was ready. */
export class LifecycleLines {
  private wasReady = false;

  constructor(private readonly logger: Logger) {}

  ready(url: string, adminUrl: string, modules: readonly string[]): void {
    this.logger.info({ url, adminUrl, modules }, `tessera ready at ${url}`);
    this.wasReady = true;
  }

  stopping(): void {
    this.logger.info('tessera stopping: requests in flight may finish');
  }

  stopped(): void {
    if (this.wasReady) this.logger.info('tessera stopped');
  }
}
