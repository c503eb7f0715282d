/**
 * One user calling a running server over real HTTP with a bearer token from the test issuer.
 * Every call is bounded by a timeout, so a dead or stuck server fails a test instead of hanging it.
 */
import type { TestIssuer } from './test-issuer.js';

const REQUEST_TIMEOUT_MS = 15_000;
/** Long enough for any reliability run; the server still checks exp on every call. */
const TOKEN_LIFETIME_SECONDS = 900;

export interface HttpAnswer {
  readonly status: number;
  readonly body: unknown;
}

export interface HttpUser {
  readonly subject: string;
  readonly token: string;
  /** Resolves with the answer, or rejects when the connection fails (the server died, say). */
  call(method: string, path: string, body?: unknown): Promise<HttpAnswer>;
}

export async function httpUser(origin: string, issuer: TestIssuer, subject: string): Promise<HttpUser> {
  const token = await issuer.token(subject, { expiresInSeconds: TOKEN_LIFETIME_SECONDS });
  return {
    subject,
    token,
    async call(method, path, body) {
      const response = await fetch(`${origin}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON: keep the text, a failing assertion will show it.
      }
      return { status: response.status, body: parsed };
    },
  };
}

export function isSuccess(answer: HttpAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}
