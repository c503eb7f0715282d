import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { OWNERS, WRITERS } from '../../domain/budgets.js';
import { type BudgetMembership, callerOf, registerTokenCheck, userOf } from './api-scope.js';
import { handleError } from './http-errors.js';
import type { RateLimits } from './rate-limit.js';

const USER = { issuer: 'https://issuer.test', subject: 'alex', name: 'Alex' };
const HOUSEHOLD: BudgetMembership = {
  id: 'household',
  name: 'Household',
  personal: false,
  owner: { issuer: 'urn:leftover:budget', subject: 'household' },
  role: 'VIEWER',
};
const NO_LIMITS: RateLimits = {
  countCall: async () => undefined,
  chargeRows: async () => undefined,
  countRefusedToken: async () => undefined,
};

describe('the /api scope: which budget a call acts on, and who may make it (decision 0088)', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => app?.close());

  async function scope(): Promise<FastifyInstance> {
    app = Fastify({ logger: false });
    app.setErrorHandler(handleError);
    await app.register(
      async (api) => {
        registerTokenCheck(
          api,
          async () => USER,
          NO_LIMITS,
          async (_user, id) => (id === HOUSEHOLD.id ? HOUSEHOLD : undefined),
        );
        const answer = async (request: FastifyRequest) => ({ owner: callerOf(request), user: userOf(request) });
        // Registered by hand, as a route outside the endpoint table would be: it says nobody may call it.
        api.get('/undeclared', answer);
        api.post('/write', { config: { access: WRITERS, budgetPlace: 'header' } }, answer);
        api.get('/export', { config: { access: OWNERS, budgetPlace: 'header' } }, answer);
        api.get('/me-only', { config: { access: 'person', budgetPlace: 'none' } }, answer);
      },
      { prefix: '/api' },
    );
    return app;
  }

  it('refuses a route that declares no role, whoever calls it', async () => {
    const response = await (await scope()).inject({ method: 'GET', url: '/api/undeclared' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'forbidden' } });
  });

  it('acts on the personal budget without the header, on the header’s budget with it, and on the person for a PERSON call', async () => {
    const api = await scope();
    expect((await api.inject({ method: 'POST', url: '/api/write' })).json()).toEqual({
      owner: { issuer: USER.issuer, subject: 'alex' },
      user: USER,
    });
    const viewer = await api.inject({ method: 'POST', url: '/api/write', headers: { 'leftover-budget': 'household' } });
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json()).toEqual({ error: { code: 'forbidden', message: 'You can view this budget but not change it.' } });
    const owners = await api.inject({ method: 'GET', url: '/api/export', headers: { 'leftover-budget': 'household' } });
    expect(owners.json()).toEqual({ error: { code: 'forbidden', message: 'Only an owner of this budget can do this.' } });
    const person = await api.inject({ method: 'GET', url: '/api/me-only', headers: { 'leftover-budget': 'household' } });
    expect(person.json()).toEqual({ owner: { issuer: USER.issuer, subject: 'alex' }, user: USER });
  });

  it('answers 404 for a budget the caller is not in, and 400 for a header that cannot be an id', async () => {
    const api = await scope();
    const unknown = await api.inject({ method: 'POST', url: '/api/write', headers: { 'leftover-budget': 'someone-elses' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { code: 'not_found', message: 'No such budget.' } });
    const malformed = await api.inject({ method: 'POST', url: '/api/write', headers: { 'leftover-budget': 'a/b' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ error: { code: 'bad_request', fields: { 'Leftover-Budget': expect.any(String) } } });
  });
});
