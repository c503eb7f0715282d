/**
 * How the development provider behaves: one public client (the page) with PKCE, JWT access tokens
 * for our API as the default resource, no consent screen for our own client, refresh tokens.
 */
import { type Configuration, errors as oidcErrors, type KoaContextWithOIDC } from 'oidc-provider';
import type { OidcConfig } from '../config.js';
import type { DevProviderKeys } from './dev-keys.js';
import type { DevProviderStore } from './dev-provider-store.js';
import { DEV_SIGN_IN_PATH } from './dev-sign-in-page.js';

export type EmbeddedOidc = Extract<OidcConfig, { kind: 'embedded' }>;

/**
 * Access tokens live 15 minutes: a JWT stays valid at the API until it expires, even after sign-out,
 * so a short life bounds that; the refresh token (1 day) renews it without asking the user again.
 */
export const DEV_ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/** An unfinished sign-in lasts 10 minutes: anonymous /oidc/auth calls leave nothing behind for long. */
export const DEV_INTERACTION_TTL_SECONDS = 10 * 60;

export function devProviderConfiguration(oidc: EmbeddedOidc, keys: DevProviderKeys, store: DevProviderStore): Configuration {
  const origin = new URL(oidc.issuer).origin;
  return {
    // Bounded by time, each kind of entry in a table of its own (dev-provider-store.ts).
    adapter: store.adapter,
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
    // The API reads a member's display name from the access token (issue 38: `name`, else
    // `preferred_username`): the development provider puts the name it signs in with there, as a
    // production provider configured for Leftover does.
    extraTokenClaims: (_ctx, token) =>
      'accountId' in token && typeof token.accountId === 'string' ? { name: token.accountId } : undefined,
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
            accessTokenTTL: DEV_ACCESS_TOKEN_TTL_SECONDS,
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
      AccessToken: DEV_ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: DEV_INTERACTION_TTL_SECONDS,
      Session: 14 * 24 * 60 * 60,
      Grant: 14 * 24 * 60 * 60,
      RefreshToken: 24 * 60 * 60,
    },
    renderError: async (ctx, out) => {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `Development sign-in error: ${out.error}${out.error_description ? ` (${out.error_description})` : ''}`;
    },
  };
}
