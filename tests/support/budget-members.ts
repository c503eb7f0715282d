/**
 * People calling one test app as members of budgets (issue 38): each signs in with a subject of their
 * own (never shown to others) and the claims their tokens carry, and a call may name a budget with
 * the Leftover-Budget header. Tokens are minted once per person and claims, for the file's app.
 */
import crypto from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

export interface Person {
  readonly subject: string;
  readonly claims: Record<string, string>;
}

/** A new person for this run: `label` and a random tail, so tests sharing an app never share people. */
export function person(label: string, claims: Record<string, string> = {}): Person {
  return { subject: `${label}-${crypto.randomUUID()}`, claims };
}

export interface MemberCalls {
  /** One call as `who`; `budget` is sent as the Leftover-Budget header. */
  call(
    who: Person,
    method: InjectOptions['method'],
    url: string,
    options?: { readonly body?: unknown; readonly budget?: string },
  ): Promise<LightMyRequestResponse>;
  /** The answer's body, after checking it is a 200. */
  ok<Answer>(response: Promise<LightMyRequestResponse>): Promise<Answer>;
  /** Checks the refusal's status and, when given, its message. */
  refused(response: LightMyRequestResponse, status: number, message?: string): void;
}

/** Calls of people against the app `appOf` gives (started in the file's beforeAll). */
export function memberCalls(appOf: () => TestApp): MemberCalls {
  const tokens = new Map<string, Promise<string>>();
  return {
    async call(who, method, url, { body, budget } = {}) {
      const test = appOf();
      const key = `${who.subject} ${JSON.stringify(who.claims)}`;
      let token = tokens.get(key);
      if (!token) {
        token = test.issuer.token(who.subject, { claims: who.claims, expiresInSeconds: 3600 });
        tokens.set(key, token);
      }
      return test.app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${await token}`,
          ...(budget !== undefined && { 'leftover-budget': budget }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
    },
    async ok<Answer>(response: Promise<LightMyRequestResponse>): Promise<Answer> {
      const answer = await response;
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<Answer>();
    },
    refused(response, status, message) {
      expect(response.statusCode, response.body).toBe(status);
      if (message !== undefined) expect(response.json<{ error: { message: string } }>().error.message).toBe(message);
    },
  };
}
