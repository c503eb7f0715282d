/**
 * The only code that calls fetch: attaches the access token, checks every answer against the
 * contract, and turns failures into the catalogue's messages plus the server's own.
 */
import type { z } from 'zod';
import { type Profile, profileSchema } from '../../contract/app-config.js';
import { type ApiOperation, errorBodySchema, FAILURE_MESSAGES } from '../../contract/errors.js';

export class ApiCallError extends Error {
  constructor(
    readonly operation: ApiOperation,
    /** 0 when the server could not be reached at all. */
    readonly status: number,
    /** What the server said, or what went wrong on the way. */
    readonly detail: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(FAILURE_MESSAGES[operation]);
    this.name = 'ApiCallError';
  }
}

export interface ApiClientOptions {
  readonly getAccessToken: () => string | undefined;
  /** A 401: the token is gone or refused; the page signs in again. */
  readonly onUnauthorized: () => void;
  /** Counts calls in flight, for the spinner. */
  readonly onCallStart?: () => void;
  readonly onCallEnd?: () => void;
  readonly fetchImpl?: typeof fetch;
}

interface Request<T> {
  readonly operation: ApiOperation;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly answer: z.ZodType<T>;
  readonly body?: unknown;
}

export function createApiClient(options: ApiClientOptions) {
  const fetchImpl = options.fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  async function call<T>({ operation, method, path, answer, body }: Request<T>): Promise<T> {
    options.onCallStart?.();
    try {
      const headers: Record<string, string> = { accept: 'application/json' };
      const token = options.getAccessToken();
      if (token) headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      let response: Response;
      try {
        response = await fetchImpl(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      } catch {
        throw new ApiCallError(operation, 0, 'The server could not be reached. Check your connection and try again.');
      }
      const payload: unknown = await response.json().catch(() => undefined);
      if (!response.ok) {
        if (response.status === 401) options.onUnauthorized();
        const error = errorBodySchema.safeParse(payload);
        throw new ApiCallError(
          operation,
          response.status,
          error.success ? error.data.error.message : `The server answered ${response.status}.`,
          error.success ? (error.data.error.fields ?? {}) : {},
        );
      }
      const parsed = answer.safeParse(payload);
      if (!parsed.success) throw new ApiCallError(operation, response.status, 'The server answered something unexpected.');
      return parsed.data;
    } finally {
      options.onCallEnd?.();
    }
  }

  return {
    getProfile: (): Promise<Profile> => call({ operation: 'getProfile', method: 'GET', path: '/api/me', answer: profileSchema }),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
