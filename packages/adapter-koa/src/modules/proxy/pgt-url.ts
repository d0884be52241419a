import type { IssueProxyGrantingTicket } from '@tessera/core/modules/proxy';
import type { ValidationExtension } from '../../http-module.js';
import { text } from '../../request/parameter-schemas.js';
import { requestOrigin } from '../../request/request-origin.js';

/**
 * `pgtUrl` on the CAS 2 and 3 validation paths (docs/protocol.md §13.1): where a service asks for a PGT.
 * The answer names the IOU of a PGT delivered there; a PGT that could not be delivered is only left out.
 */
export function pgtUrlExtension(issue: IssueProxyGrantingTicket): ValidationExtension {
  return {
    query: {
      pgtUrl: text('With the proxy module: the https URL of a proxy callback to deliver a proxy-granting ticket to, when the service may proxy to it; the answer then names its IOU. Its failure never fails the validation.'),
    },
    async answer(ctx, validated, { pgtUrl }) {
      if (typeof pgtUrl !== 'string' || pgtUrl === '') return {};
      const pgtIou = await issue.execute({ validated, pgtUrl, origin: requestOrigin(ctx) });
      return pgtIou === undefined ? {} : { proxyGrantingTicket: pgtIou };
    },
  };
}
