/**
 * What a restore stored, or a delete removed. Apart from account.ts so the page's first view, whose
 * api client checks this answer, does not carry the export's schemas (benchmark 4a, decision 0044).
 */
import * as z from 'zod/mini';

export const accountCountsSchema = z.object({ deposits: z.number(), expenses: z.number(), transactions: z.number() });
export type AccountCounts = z.infer<typeof accountCountsSchema>;
