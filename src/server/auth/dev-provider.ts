/**
 * The embedded development OpenID provider: a real, certified provider (oidc-provider) with a
 * sign-in page that asks only for a user name. It exists so `npm start` works with no account
 * anywhere; it refuses to run in production.
 *
 * Its routes are registered at start, but oidc-provider itself (about 320 ms and 24 MB to load)
 * is loaded and the provider made on the first request that needs it: the API checks tokens
 * against the keys file alone (docs/decisions/0041-start-fast-idle-light.md).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import formBody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { JSONWebKeySet } from 'jose';
import type Provider from 'oidc-provider';
import { type DevProviderKeys, devKeysOnDemand, publicJwks } from './dev-keys.js';
import { TooManyRequestsError } from '../../domain/errors.js';
import type { EmbeddedOidc } from './dev-provider-configuration.js';
import { createDevProviderStore } from './dev-provider-store.js';
import { DEV_SIGN_IN_PATH, SIGN_IN_STYLE, signInPage } from './dev-sign-in-page.js';

const ISSUER_PATH = '/oidc';
const USER_NAME = /^[a-z0-9._@-]{1,64}$/;

export interface DevProvider {
  /** The public half of its signing keys: what the API checks the tokens it issues against. */
  readonly publicKeys: () => Promise<JSONWebKeySet>;
}

/** The provider, made once on first use; a failure to make it is tried again by the next request. */
type ProviderOnDemand = () => Promise<Provider>;

function providerOnDemand(oidc: EmbeddedOidc, keys: () => Promise<DevProviderKeys>): ProviderOnDemand {
  let provider: Promise<Provider> | undefined;
  const make = async () => {
    const [{ default: OidcProvider }, { devProviderConfiguration }, loaded] = await Promise.all([
      import('oidc-provider'),
      import('./dev-provider-configuration.js'),
      keys(),
    ]);
    return new OidcProvider(oidc.issuer, devProviderConfiguration(oidc, loaded, createDevProviderStore()));
  };
  return () => {
    provider ??= make().catch((error: unknown) => {
      provider = undefined;
      throw error;
    });
    return provider;
  };
}

/**
 * Mounts the provider under /oidc and its sign-in page under /dev-sign-in, in a scope of their
 * own (only the sign-in form takes form bodies), and answers the keys its tokens are signed with.
 * The refusal in production comes first, at start, before any file is read or written.
 */
export async function registerDevProvider(app: FastifyInstance, oidc: EmbeddedOidc, nodeEnv: string): Promise<DevProvider> {
  if (nodeEnv === 'production') {
    throw new Error(
      'The embedded development OpenID provider refuses to run with NODE_ENV=production: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_AUDIENCE.',
    );
  }
  const keys = devKeysOnDemand(oidc.keysFile);
  const provider = providerOnDemand(oidc, keys);
  await app.register(async (scope) => {
    await scope.register(formBody, { bodyLimit: 4096 });
    await limitPerAddress(scope, oidc.perAddressPerMinute);
    pinHost(scope, oidc.issuer);
    mountProvider(scope, provider, new URL(oidc.issuer).origin);
  });
  return { publicKeys: async () => publicJwks(await keys()) };
}

/**
 * A budget per address for the provider and its sign-in page (decision 0028), apart from the API's:
 * every /oidc/auth call stores an interaction, so an unbounded stream of them costs memory.
 */
async function limitPerAddress(scope: FastifyInstance, max: number): Promise<void> {
  await scope.register(rateLimit, { global: false });
  const limit = scope.createRateLimit({ max, timeWindow: 60_000, keyGenerator: (request) => request.ip });
  scope.addHook('onRequest', async (request) => {
    const result = await limit(request);
    if (!result.isAllowed && result.isExceeded) {
      const wait = result.ttlInSeconds === 1 ? '1 second' : `${result.ttlInSeconds} seconds`;
      throw new TooManyRequestsError(`Too many sign-in requests from your address. Try again in ${wait}.`, result.ttlInSeconds);
    }
  });
}

/**
 * The provider builds its endpoint addresses from the request's Host; a forged Host would put an
 * attacker's origin in the discovery document. Every request here is read as addressed to the
 * configured issuer's own host instead.
 */
function pinHost(scope: FastifyInstance, issuer: string): void {
  const host = new URL(issuer).host;
  scope.addHook('onRequest', async (request) => {
    request.raw.headers.host = host;
  });
}

/**
 * oidc-provider answers its discovery document, its keys and every preflight with
 * `Access-Control-Allow-Origin` set to whatever Origin asked (issue 34). Only the app's own origin
 * (the issuer's, where the page is served) may read them: for any other, the answer carries no
 * `Access-Control-*` header at all, so a browser keeps it from that page. The provider's own
 * check for its token endpoint (clientBasedCORS) still refuses other origins as before.
 */
function corsOnlyFor(ownOrigin: string, request: IncomingMessage, response: ServerResponse): void {
  const origin = request.headers.origin;
  if (origin === undefined || origin === ownOrigin) return;
  const setHeader = response.setHeader.bind(response);
  response.setHeader = (name: string, value: number | string | readonly string[]) =>
    name.toLowerCase().startsWith('access-control-') ? response : setHeader(name, value);
}

/** The provider reads its own request bodies, so it is handed the raw request before Fastify parses anything. */
function mountProvider(scope: FastifyInstance, provider: ProviderOnDemand, ownOrigin: string): void {
  let callback: ReturnType<Provider['callback']> | undefined;
  const handOver = async (request: FastifyRequest, reply: FastifyReply) => {
    callback ??= (await provider()).callback();
    reply.hijack();
    corsOnlyFor(ownOrigin, request.raw, reply.raw);
    const raw = request.raw as typeof request.raw & { originalUrl?: string };
    raw.originalUrl = raw.url;
    raw.url = (raw.url ?? '/').slice(ISSUER_PATH.length) || '/';
    void callback(raw, reply.raw);
  };
  const methods = ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH'] as const;
  for (const url of [ISSUER_PATH, `${ISSUER_PATH}/*`]) {
    scope.route({ method: [...methods], url, onRequest: handOver, handler: async () => undefined });
  }

  scope.get(`${DEV_SIGN_IN_PATH}/style.css`, async (_request, reply) => reply.type('text/css; charset=utf-8').send(SIGN_IN_STYLE));

  scope.get<{ Params: { uid: string } }>(`${DEV_SIGN_IN_PATH}/:uid`, async (request, reply) => {
    const details = await (await provider()).interactionDetails(request.raw, reply.raw).catch(() => undefined);
    if (!details || details.uid !== request.params.uid) {
      return reply.code(400).type('text/plain; charset=utf-8').send('This sign-in has expired. Go back to Leftover and sign in again.');
    }
    return reply.type('text/html; charset=utf-8').send(signInPage(details.uid));
  });

  scope.post<{ Params: { uid: string }; Body: { username?: unknown } }>(`${DEV_SIGN_IN_PATH}/:uid`, async (request, reply) => {
    const oidcProvider = await provider();
    const details = await oidcProvider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
    if (!details || details.uid !== request.params.uid) {
      return reply.code(400).type('text/plain; charset=utf-8').send('This sign-in has expired. Go back to Leftover and sign in again.');
    }
    const userName = typeof request.body?.username === 'string' ? request.body.username.trim().toLowerCase() : '';
    if (!USER_NAME.test(userName)) {
      return reply
        .code(400)
        .type('text/html; charset=utf-8')
        .send(signInPage(details.uid, 'Enter a user name of 1 to 64 letters, digits or . _ @ -'));
    }
    reply.hijack();
    await oidcProvider.interactionFinished(request.raw, reply.raw, { login: { accountId: userName } }, { mergeWithLastSubmission: false });
    return undefined;
  });
}
