/**
 * The app factory: what `npm start` runs and what every API test injects into, with the same
 * settings. Plugins in layers: security and parsing, sign-in, the database, then the routes.
 */
import fs from 'node:fs';
import path from 'node:path';
import formBody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { answerSerializerCompiler } from './answer-serializer.js';
import type { KyselyPlugin } from 'kysely';
import { APP_CONFIG_PATH, type AppConfig } from '../contract/app-config.js';
import { API_PREFIX } from '../contract/common.js';
import type { ErrorBody } from '../contract/errors.js';
import { type AccessTokenVerifier, createAccessTokenVerifier, createDiscoveredKeySet, createLocalKeySet } from './auth/access-token.js';
import { publicJwks, registerDevProvider } from './auth/dev-provider.js';
import { registerTokenCheck } from './api-scope.js';
import type { AppConfiguration } from './config.js';
import { type OpenDatabase, openDatabase } from './db/database.js';
import { type BareAnswerHeaders, createClientErrorHandler, createFrameworkErrorHandler, handleError } from './http-errors.js';
import { type RateLimitBudget, registerRateLimits } from './rate-limit.js';
import { depositRoutes } from './deposits/routes.js';
import { expenseRoutes } from './expenses/routes.js';
import { ledgerRoutes } from './ledger/routes.js';
import { profileRoutes } from './profile/routes.js';

export const BODY_LIMIT_BYTES = 64 * 1024;

export interface AppOptions {
  /** The built page; page routes fall back to its index.html. */
  readonly webRoot?: string;
  /** The clock for "today" (expense totals, ledger defaults); tests fix it. Tokens use real time. */
  readonly now?: () => Date;
  /** Tests may check tokens against their own key set instead of the issuer's. */
  readonly verifyAccessToken?: AccessTokenVerifier;
  readonly logger?: boolean;
  /** Where log lines go instead of stdout; tests read them to see that a failure's detail was logged. */
  readonly logStream?: { write(line: string): void };
  /** Overrides the configured request budgets; tests use a small budget and a short window. */
  readonly rateLimit?: Partial<RateLimitBudget>;
  /** Sees every query the routes run; tests count them to show a refused request reads nothing. */
  readonly queryObserver?: KyselyPlugin;
}

declare module 'fastify' {
  interface FastifyInstance {
    database: OpenDatabase;
    now: () => Date;
  }
}

function contentSecurityPolicy(config: AppConfiguration) {
  const issuerOrigin = new URL(config.oidc.issuer).origin;
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      // Bootstrap draws select arrows and checkboxes as data: SVG images.
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      // The page talks to the provider's discovery, token and key endpoints directly.
      connectSrc: ["'self'", issuerOrigin],
      formAction: ["'self'", issuerOrigin],
      frameSrc: ["'none'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
    },
  };
}

/** One year, subdomains included, not preloaded: preloading is a promise about a domain we do not own. */
const STRICT_TRANSPORT_SECURITY = { maxAge: 31_536_000, includeSubDomains: true, preload: false } as const;

/**
 * The headers helmet sends, spelled out for the few answers that leave before its hook runs (an
 * undecodable URL, a request Node cannot parse); a test checks the two stay the same.
 */
function bareAnswerHeaders(policy: ReturnType<typeof contentSecurityPolicy>): BareAnswerHeaders {
  const directives = Object.entries(policy.directives).map(
    ([name, values]) => `${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)} ${values.join(' ')}`,
  );
  return {
    'Content-Security-Policy': directives.join(';'),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Strict-Transport-Security': `max-age=${STRICT_TRANSPORT_SECURITY.maxAge}; includeSubDomains`,
    'Cache-Control': 'no-store',
  };
}

export async function buildApp(config: AppConfiguration, options: AppOptions = {}): Promise<FastifyInstance> {
  const policy = contentSecurityPolicy(config);
  const bareHeaders = bareAnswerHeaders(policy);
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { level: config.logLevel, redact: ['req.headers.authorization'], ...(options.logStream ? { stream: options.logStream } : {}) },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: false,
    frameworkErrors: createFrameworkErrorHandler(bareHeaders),
    clientErrorHandler: createClientErrorHandler(bareHeaders),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializerCompiler);
  app.setErrorHandler(handleError);
  app.decorate('now', options.now ?? (() => new Date()));

  await app.register(helmet, {
    contentSecurityPolicy: policy,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
    // Sent on every answer (docs/decisions/0008-hsts-on-every-answer.md): browsers ignore it over plain
    // http, and behind a TLS-terminating proxy this server cannot tell it is served over https.
    strictTransportSecurity: STRICT_TRANSPORT_SECURITY,
  });

  let verify = options.verifyAccessToken;
  if (config.oidc.kind === 'embedded') {
    const oidc = config.oidc;
    let jwks: ReturnType<typeof publicJwks> | undefined;
    await app.register(async (scope) => {
      await scope.register(formBody, { bodyLimit: 4096 });
      const devProvider = await registerDevProvider(scope, oidc, config.nodeEnv);
      jwks = publicJwks(devProvider.keys);
    });
    // The provider runs in this process, so its public keys are checked without a network hop.
    verify ??= createAccessTokenVerifier({ issuer: oidc.issuer, audience: oidc.audience, keySet: createLocalKeySet(jwks ?? { keys: [] }) });
  } else {
    verify ??= createAccessTokenVerifier({
      issuer: config.oidc.issuer,
      audience: config.oidc.audience,
      keySet: createDiscoveredKeySet(config.oidc.issuer),
    });
  }

  const opened = await openDatabase(config.database);
  const database: OpenDatabase = options.queryObserver ? { ...opened, db: opened.db.withPlugin(options.queryObserver) } : opened;
  app.decorate('database', database);
  app.addHook('onClose', async () => database.close());

  const pageConfig: AppConfig = {
    oidc: { issuer: config.oidc.issuer, clientId: config.oidc.clientId, audience: config.oidc.audience },
    developmentSignIn: config.oidc.kind === 'embedded',
  };
  app.get(APP_CONFIG_PATH, async (_request, reply) => reply.header('Cache-Control', 'no-store').send(pageConfig));

  const verifyAccessToken = verify;
  const budget: RateLimitBudget = {
    perUserPerMinute: config.rateLimit.perUserPerMinute,
    unauthenticatedPerMinute: config.rateLimit.unauthenticatedPerMinute,
    windowMs: 60_000,
    ...options.rateLimit,
  };
  await app.register(
    async (api) => {
      registerTokenCheck(api, verifyAccessToken, await registerRateLimits(api, budget));
      await api.register(profileRoutes);
      await api.register(depositRoutes);
      await api.register(expenseRoutes);
      await api.register(ledgerRoutes);
      api.setNotFoundHandler((request, reply) => {
        // The request's own path is not echoed back: an answer never repeats what a caller made up.
        const body: ErrorBody = { error: { code: 'not_found', message: `There is no such API call (${request.method}).` } };
        return reply.code(404).send(body);
      });
    },
    { prefix: API_PREFIX },
  );

  registerPage(app, options.webRoot ?? path.resolve('dist/web'));
  return app;
}

/**
 * Serves the built page: hashed assets are cached for good, index.html never, and every page
 * route (including /login/callback) falls back to index.html.
 */
function registerPage(app: FastifyInstance, webRoot: string): void {
  const indexFile = path.join(webRoot, 'index.html');
  const built = fs.existsSync(indexFile);
  if (built) {
    void app.register(fastifyStatic, {
      root: webRoot,
      index: false,
      wildcard: false,
      // Its own Cache-Control (public, max-age=0) would replace ours below.
      cacheControl: false,
      setHeaders: (response, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        response.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/');
    if (!wantsPage) {
      const body: ErrorBody = { error: { code: 'not_found', message: `There is nothing at this address (${request.method}).` } };
      return reply.code(404).send(body);
    }
    if (!built) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The page is not built yet: run `npm run build` (npm start does it for you).');
    }
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(fs.createReadStream(indexFile));
  });
}
