import { z } from 'zod';
import { integerFrom, section } from '../../config/setting-schemas.js';

export const restSections = {
  rest: section({
    revision: z
      .enum(['current', 'earlier'], { error: 'expected current or earlier' })
      .default('current')
      .describe('`earlier` answers bad credentials with 400 instead of 401, as CAS 4.x did.'),
    newLoginWindowSeconds: integerFrom(0, 3600)
      .default(30)
      .describe(
        "How long after `POST /v1/tickets` the TGT's first service ticket still counts as from a new login (`isFromNewLogin`, accepted by `renew=true` validation). Later ones, and any a browser gets by single sign-on, count only when granted with `renew` and credentials. 0: never.",
      ),
  }).prefault({}),
};
