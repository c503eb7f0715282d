/**
 * The headers every answer carries: a strict content security policy (the page talks only to us
 * and the sign-in provider), HSTS, no sniffing, no referrer. Helmet sends them on ordinary answers;
 * the few answers that leave before its hook runs get the same headers spelled out.
 */
import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { AppConfiguration } from '../config.js';
import type { BareAnswerHeaders } from './http-errors.js';

function contentSecurityPolicy(config: AppConfiguration, inlineScripts: readonly string[]) {
  const issuerOrigin = new URL(config.oidc.issuer).origin;
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      // Our files, and the page's own inline script by its hash (the first reads, decision 0121).
      scriptSrc: ["'self'", ...inlineScripts],
      styleSrc: ["'self'"],
      // Bootstrap draws select arrows and checkboxes as data: SVG images.
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      // The page talks to the provider's discovery, token and key endpoints directly.
      connectSrc: ["'self'", issuerOrigin],
      formAction: ["'self'", issuerOrigin],
      // The service worker (decision 0026) and the web app manifest come from us.
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
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

export interface SecurityHeaders {
  readonly helmet: FastifyHelmetOptions;
  /** For the answers that leave before helmet's hook could add its headers. */
  readonly bare: BareAnswerHeaders;
}

/** `inlineScripts`: the built page's inline scripts as script-src sources ('sha256-...'). */
export function securityHeaders(config: AppConfiguration, inlineScripts: readonly string[] = []): SecurityHeaders {
  const policy = contentSecurityPolicy(config, inlineScripts);
  return {
    helmet: {
      contentSecurityPolicy: policy,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'no-referrer' },
      // Sent on every answer (docs/decisions/0008-hsts-on-every-answer.md): browsers ignore it over plain
      // http, and behind a TLS-terminating proxy this server cannot tell it is served over https.
      strictTransportSecurity: STRICT_TRANSPORT_SECURITY,
    },
    bare: bareAnswerHeaders(policy),
  };
}
