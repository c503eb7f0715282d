/** The error body every failed API call answers with; what the page says first is in each call's row of ENDPOINTS (common.ts). */
import * as z from 'zod/mini';

const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'precondition_failed',
  'gone',
  'too_many_requests',
  'internal_error',
  'service_unavailable',
  'misdirected_request',
] as const;

export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    /** One message per bad field, keyed by the field's path ("ledger.startDate"). */
    fields: z.optional(z.record(z.string(), z.string())),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The same body with nothing else in it: what tests hold every answer to. */
export const strictErrorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    fields: z.optional(z.record(z.string(), z.string())),
  }),
});
