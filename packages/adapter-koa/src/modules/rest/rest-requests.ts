import { z } from 'zod';

/** A ticket in the path of a REST route. */
export const TICKET_ID = z.string().meta({ description: 'A ticket id, or with the tokens module the JWT of a TGT.' });
