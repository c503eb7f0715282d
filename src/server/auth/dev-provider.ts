/**
 * The embedded development OpenID provider: a real, certified provider (oidc-provider) with a
 * sign-in page that asks only for a user name. It exists so `npm start` works with no account
 * anywhere; it refuses to run in production.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type Configuration, errors as oidcErrors, type KoaContextWithOIDC } from 'oidc-provider';
import { z } from 'zod';
import type { OidcConfig } from '../config.js';

export const DEV_SIGN_IN_PATH = '/dev-sign-in';
const ISSUER_PATH = '/oidc';
const USER_NAME = /^[a-z0-9._@-]{1,64}$/;

interface DevProviderKeys {
  signingKeys: JWK[];
  cookieKeys: string[];
}

const keysFileSchema = z.object({
  signingKeys: z.array(z.record(z.string(), z.unknown())).min(1),
  cookieKeys: z.array(z.string().min(16)).min(1),
});

/** Keys persist in the data folder so tokens and sessions stay valid across restarts. */
export async function loadOrCreateDevKeys(file: string): Promise<DevProviderKeys> {
  if (fs.existsSync(file)) {
    const parsed = keysFileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return { signingKeys: parsed.signingKeys as JWK[], cookieKeys: parsed.cookieKeys };
  }
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const keys: DevProviderKeys = {
    signingKeys: [{ ...jwk, kid: crypto.randomUUID(), alg: 'RS256', use: 'sig' }],
    cookieKeys: [crypto.randomBytes(32).toString('base64url')],
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(keys, null, 2), { mode: 0o600 });
  fs.renameSync(temporary, file);
  return keys;
}

/** The public half of the signing keys: what the API checks tokens against. */
export function publicJwks(keys: DevProviderKeys): { keys: JWK[] } {
  return {
    keys: keys.signingKeys.map(({ kty, n, e, crv, x, y, kid, alg, use }) => ({ kty, n, e, crv, x, y, kid, alg, use })),
  };
}

function signInPage(uid: string, problem?: string): string {
  const escapedUid = encodeURIComponent(uid);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Development sign-in - Leftover</title>
<link rel="stylesheet" href="${DEV_SIGN_IN_PATH}/style.css">
</head>
<body>
<main>
<h1>Development sign-in</h1>
<p class="warning" role="note"><strong>For development only.</strong> This built-in sign-in checks no password:
anyone can sign in as any user name. Configure OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_AUDIENCE to use a real provider.</p>
<p>Each user name is its own user with its own data.</p>
<form method="post" action="${DEV_SIGN_IN_PATH}/${escapedUid}">
<label for="username">User name</label>
<input id="username" name="username" autocomplete="username" required maxlength="64" autofocus
 pattern="[A-Za-z0-9._@\\-]{1,64}" aria-describedby="username-help${problem ? ' username-problem' : ''}">
<p id="username-help" class="help">Letters, digits and . _ @ - (up to 64).</p>
${problem ? `<p id="username-problem" class="problem" role="alert">${problem}</p>` : ''}
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>`;
}

const SIGN_IN_STYLE = `body{font-family:system-ui,sans-serif;background:#f4f6f4;margin:0}
main{max-width:28rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:.5rem;box-shadow:0 1px 4px #0002}
.warning{background:#fff3cd;border:1px solid #997404;padding:.75rem;border-radius:.25rem}
label{display:block;font-weight:600;margin-top:1rem}input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}
.help{color:#555;font-size:.9rem}.problem{color:#a00;font-weight:600}
button{margin-top:1rem;padding:.5rem 1.5rem;font-size:1rem;background:#146c43;color:#fff;border:0;border-radius:.25rem}`;

export interface DevProvider {
  readonly keys: DevProviderKeys;
}

/**
 * Mounts the provider under /oidc and its sign-in page under /dev-sign-in. The provider reads
 * its own request bodies, so it is handed the raw request before Fastify parses anything.
 */
export async function registerDevProvider(
  app: FastifyInstance,
  oidc: Extract<OidcConfig, { kind: 'embedded' }>,
  nodeEnv: string,
): Promise<DevProvider> {
  if (nodeEnv === 'production') {
    throw new Error(
      'The embedded development OpenID provider refuses to run with NODE_ENV=production: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_AUDIENCE.',
    );
  }
  const keys = await loadOrCreateDevKeys(oidc.keysFile);
  const origin = new URL(oidc.issuer).origin;

  const configuration: Configuration = {
    clients: [
      {
        client_id: oidc.clientId,
        client_name: 'Leftover',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${origin}/login/callback`],
        post_logout_redirect_uris: [`${origin}/`],
      },
    ],
    jwks: { keys: keys.signingKeys },
    cookies: { keys: keys.cookieKeys },
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'] },
    findAccount: (_ctx, accountId) => ({
      accountId,
      claims: () => ({ sub: accountId, name: accountId, preferred_username: accountId }),
    }),
    interactions: { url: (_ctx, interaction) => `${DEV_SIGN_IN_PATH}/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => oidc.audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (resourceIndicator !== oidc.audience) throw new oidcErrors.InvalidTarget();
          return {
            scope: 'openid profile',
            audience: oidc.audience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: 60 * 60,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    // The page is our own first-party client: it never asks for consent.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const client = ctx.oidc.client;
      const session = ctx.oidc.session;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile');
      grant.addResourceScope(oidc.audience, 'openid profile');
      await grant.save();
      return grant;
    },
    // A refresh token lets the page renew its access token without a hidden iframe, which the
    // page's frame-ancestors 'none' forbids.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    pkce: { required: () => true },
    // The page calls the token endpoint from its own origin, which is also the provider's.
    clientBasedCORS: (_ctx, requestOrigin, client) => client.clientId === oidc.clientId && requestOrigin === origin,
    ttl: {
      AccessToken: 60 * 60,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      Session: 14 * 24 * 60 * 60,
      Grant: 14 * 24 * 60 * 60,
      RefreshToken: 24 * 60 * 60,
    },
    renderError: async (ctx, out) => {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `Development sign-in error: ${out.error}${out.error_description ? ` (${out.error_description})` : ''}`;
    },
  };

  const provider = new Provider(oidc.issuer, configuration);
  const callback = provider.callback();

  const handOver = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const raw = request.raw as typeof request.raw & { originalUrl?: string };
    raw.originalUrl = raw.url;
    raw.url = (raw.url ?? '/').slice(ISSUER_PATH.length) || '/';
    void callback(raw, reply.raw);
  };
  const methods = ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH'] as const;
  for (const url of [ISSUER_PATH, `${ISSUER_PATH}/*`]) {
    app.route({ method: [...methods], url, onRequest: (request, reply) => handOver(request, reply), handler: async () => undefined });
  }

  app.get(`${DEV_SIGN_IN_PATH}/style.css`, async (_request, reply) => reply.type('text/css; charset=utf-8').send(SIGN_IN_STYLE));

  app.get<{ Params: { uid: string } }>(`${DEV_SIGN_IN_PATH}/:uid`, async (request, reply) => {
    const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
    if (!details || details.uid !== request.params.uid) {
      return reply.code(400).type('text/plain; charset=utf-8').send('This sign-in has expired. Go back to Leftover and sign in again.');
    }
    return reply.type('text/html; charset=utf-8').send(signInPage(details.uid));
  });

  app.post<{ Params: { uid: string }; Body: { username?: unknown } }>(`${DEV_SIGN_IN_PATH}/:uid`, async (request, reply) => {
    const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
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
    await provider.interactionFinished(request.raw, reply.raw, { login: { accountId: userName } }, { mergeWithLastSubmission: false });
    return undefined;
  });

  return { keys };
}
