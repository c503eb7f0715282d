/** Field schemas every answer shares, and the API's paths; the request fields are in request-fields.ts. */
import * as z from 'zod/mini';
import { hasAtMostTwoDecimals } from '../domain/money.js';

/**
 * A dollar amount in an answer: the server only ever sends whole cents, and the page relies on it
 * (dollarsToCents), so an answer with a third decimal is refused at the edge, not deep in a view.
 */
export const dollarsAnswerSchema = z.number().check(z.refine(hasAtMostTwoDecimals, 'Amounts carry at most two decimal places.'));

/** Every stored row answers with a stable id (a UUID) so the page can name it in later calls. */
export const idSchema = z.string({ error: 'Id is required.' }).check(z.regex(/^[A-Za-z0-9-]{1,64}$/, 'Id is not valid.'));

/** Every API call's path starts with this; the server's token check and budgets cover all of it. */
export const API_PREFIX = '/api';

/** A route with an `:id` parameter, as the server registers it and the page fills it in. */
export type RouteWithId = `${string}/:id`;

/** The route with the id put in place of `:id`, escaped so any id stays one path segment. */
export function withId(route: RouteWithId, id: string): string {
  return route.replace(':id', encodeURIComponent(id));
}
