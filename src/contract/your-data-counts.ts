/**
 * What a restore stored, or a delete removed. Apart from account.ts so the page's Your data calls,
 * which check this answer, do not carry the export's schemas (benchmark 4a, decision 0044).
 */
import * as z from 'zod/mini';

export const yourDataCountsSchema = z.object({ deposits: z.number(), expenses: z.number(), transactions: z.number() });
export type YourDataCounts = z.infer<typeof yourDataCountsSchema>;
