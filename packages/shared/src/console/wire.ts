import { z } from 'zod';

/** Times on the console's wire are ISO 8601 strings (UTC); amounts are US dollars. */
export const iso = z.string();
export const dollars = z.number();
