import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env, '/srv/leftover');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('runs with the embedded defaults when nothing is set', () => {
    const config = loadConfig({}, '/srv/leftover');
    expect(config.port).toBe(3000);
    expect(config.host).toBe('localhost');
    expect(config.database).toEqual({ kind: 'sqlite', file: path.resolve('/srv/leftover/data/leftover.sqlite') });
    expect(config.oidc).toMatchObject({
      kind: 'embedded',
      issuer: 'http://localhost:3000/oidc',
      clientId: 'leftover-web',
      audience: 'http://localhost:3000/api',
    });
  });

  it('follows PORT in the embedded issuer and audience', () => {
    const config = loadConfig({ PORT: '4321' }, '/srv/leftover');
    expect(config.oidc.issuer).toBe('http://localhost:4321/oidc');
    expect(config.oidc.audience).toBe('http://localhost:4321/api');
  });

  it('uses PostgreSQL for a postgres:// DATABASE_URL', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://user:secret@db:5432/leftover' }, '/srv/leftover');
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://user:secret@db:5432/leftover' });
  });

  it('uses an external provider when all three OIDC variables are set', () => {
    const config = loadConfig(
      { OIDC_ISSUER: 'https://example.okta.com/oauth2/default', OIDC_CLIENT_ID: 'abc', OIDC_AUDIENCE: 'api://leftover' },
      '/srv/leftover',
    );
    expect(config.oidc).toEqual({
      kind: 'external',
      issuer: 'https://example.okta.com/oauth2/default',
      clientId: 'abc',
      audience: 'api://leftover',
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '0' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ OIDC_ISSUER: 'not a url', OIDC_CLIENT_ID: 'a', OIDC_AUDIENCE: 'b' }, 'OIDC_ISSUER'],
    [{ OIDC_ISSUER: 'https://issuer.example' }, 'OIDC_CLIENT_ID'],
    [{ OIDC_CLIENT_ID: 'abc' }, 'OIDC_ISSUER'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ RATE_LIMIT_PER_MINUTE: '-5' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ RATE_LIMIT_PER_MINUTE: '1.5' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ RATE_LIMIT_PER_MINUTE: 'lots' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ RATE_LIMIT_PER_MINUTE: '' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ RATE_LIMIT_PER_MINUTE: '1000001' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '0' }, 'RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE'],
    [{ RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: 'none' }, 'RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE'],
  ])('refuses %o naming %s', (env, variable) => {
    const problems = problemsOf(env);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.some((problem) => problem.startsWith(`${variable}:`))).toBe(true);
  });

  it('budgets 600 calls a minute per user and 1200 per address without a valid token, unless told otherwise', () => {
    expect(loadConfig({}, '/srv/leftover').rateLimit).toEqual({ perUserPerMinute: 600, unauthenticatedPerMinute: 1200 });
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '120', RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: ' 30 ' }, '/srv/leftover').rateLimit).toEqual({
      perUserPerMinute: 120,
      unauthenticatedPerMinute: 30,
    });
  });

  it('names the range in a bad rate limit message', () => {
    expect(problemsOf({ RATE_LIMIT_PER_MINUTE: '0' })).toEqual([
      'RATE_LIMIT_PER_MINUTE: must be a whole number of requests a minute, from 1 to 1000000',
    ]);
  });

  it('refuses the development provider in production', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^OIDC_ISSUER: required when NODE_ENV=production/);
  });

  it.each([
    [{ OIDC_ISSUER: 'https://issuer.example' }, ['OIDC_CLIENT_ID', 'OIDC_AUDIENCE']],
    [{ OIDC_CLIENT_ID: 'a', OIDC_AUDIENCE: 'b' }, ['OIDC_ISSUER']],
    [{ OIDC_ISSUER: 'issuer.example', OIDC_CLIENT_ID: 'a', OIDC_AUDIENCE: 'b' }, ['OIDC_ISSUER']],
    [{ OIDC_ISSUER: '   ', OIDC_CLIENT_ID: 'a', OIDC_AUDIENCE: 'b' }, ['OIDC_ISSUER']],
  ])('stops a production start with a partial or wrong OIDC setting %o, naming %o', (oidc, variables) => {
    const problems = problemsOf({ NODE_ENV: 'production', ...oidc });
    expect(problems.map((problem) => problem.split(':')[0]).sort()).toEqual([...variables].sort());
  });

  it('refuses a plain-http issuer in production', () => {
    const problems = problemsOf({ NODE_ENV: 'production', OIDC_ISSUER: 'http://issuer.example', OIDC_CLIENT_ID: 'a', OIDC_AUDIENCE: 'b' });
    expect(problems).toEqual(['OIDC_ISSUER: must be an https:// URL when NODE_ENV=production']);
  });

  it('says every problem at once in its message', () => {
    expect(() => loadConfig({ PORT: 'x', DATABASE_URL: 'nope' })).toThrowError(/PORT:.*\n.*DATABASE_URL:/s);
  });
});

describe('loadConfig: operations (issue 16)', () => {
  it('waits 10 s for requests in flight by default, and SHUTDOWN_GRACE_MS changes it', () => {
    expect(loadConfig({}, '/srv/leftover').shutdownGraceMs).toBe(10_000);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '2500' }, '/srv/leftover').shutdownGraceMs).toBe(2500);
    for (const bad of ['soon', '-1', '1.5', '600001']) {
      expect(problemsOf({ SHUTDOWN_GRACE_MS: bad }), bad).toEqual([expect.stringMatching(/^SHUTDOWN_GRACE_MS: /)]);
    }
  });

  it('reads TRUST_PROXY as a switch, a hop count or the proxies’ addresses', () => {
    const trust = (value: string) => loadConfig({ TRUST_PROXY: value }, '/srv/leftover').trustProxy;
    expect(loadConfig({}, '/srv/leftover').trustProxy).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('TRUE')).toBe(true);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.1')).toEqual(['10.0.0.1']);
    expect(trust('10.0.0.0/8, 192.168.1.7,loopback, fd00::/8')).toEqual(['10.0.0.0/8', '192.168.1.7', 'loopback', 'fd00::/8']);
  });

  it('stops on a TRUST_PROXY it cannot read, naming the variable', () => {
    for (const bad of ['yes', '0', '10.0.0.300', '10.0.0.0/33', 'fd00::/129', '10.0.0.1,', 'proxy.example.com', '10.0.0.0/8/1']) {
      expect(problemsOf({ TRUST_PROXY: bad }), bad).toEqual([expect.stringMatching(/^TRUST_PROXY: must be true, false/)]);
    }
  });
});

describe('loadConfig: timeouts (issue 17)', () => {
  it('gives a request 30 s, a silent connection 60 s and an idle kept-alive one 5 s by default; the variables change them', () => {
    expect(loadConfig({}, '/srv/leftover').timeouts).toEqual({ requestMs: 30_000, connectionMs: 60_000, keepAliveMs: 5_000 });
    const env = { REQUEST_TIMEOUT_MS: '500', CONNECTION_TIMEOUT_MS: '2000', KEEP_ALIVE_TIMEOUT_MS: '700' };
    expect(loadConfig(env, '/srv/leftover').timeouts).toEqual({ requestMs: 500, connectionMs: 2000, keepAliveMs: 700 });
    for (const name of ['REQUEST_TIMEOUT_MS', 'CONNECTION_TIMEOUT_MS', 'KEEP_ALIVE_TIMEOUT_MS']) {
      for (const bad of ['never', '0', '99', '1.5', '600001']) {
        expect(problemsOf({ [name]: bad }), `${name}=${bad}`).toEqual([expect.stringMatching(new RegExp(`^${name}: `))]);
      }
    }
  });
});

describe('loadConfig: source maps (issue 17, finding 8)', () => {
  it('does not serve source maps unless SERVE_SOURCE_MAPS=true, and stops on any other value', () => {
    expect(loadConfig({}, '/srv/leftover').serveSourceMaps).toBe(false);
    expect(loadConfig({ SERVE_SOURCE_MAPS: 'false' }, '/srv/leftover').serveSourceMaps).toBe(false);
    expect(loadConfig({ SERVE_SOURCE_MAPS: 'true' }, '/srv/leftover').serveSourceMaps).toBe(true);
    for (const bad of ['yes', '1', 'TRUE ']) {
      expect(problemsOf({ SERVE_SOURCE_MAPS: bad }), bad).toEqual(['SERVE_SOURCE_MAPS: must be true or false']);
    }
  });

  describe('notifications and time zones (issue 26)', () => {
    it('defaults to no email, PUBLIC_URL on PORT, private webhook addresses refused, and the process zone', () => {
      const config = loadConfig({ PORT: '4321' }, '/srv/leftover');
      expect(config.notifications).toEqual({
        smtpUrl: undefined,
        mailFrom: undefined,
        publicUrl: 'http://localhost:4321',
        allowPrivateUrls: false,
        vapidSubject: 'mailto:leftover@localhost',
      });
      expect(config.defaultTimeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    });

    it('reads the SMTP server, the sender, the public address and the VAPID subject', () => {
      const config = loadConfig(
        {
          SMTP_URL: 'smtps://apikey:secret@smtp.example.com:465',
          MAIL_FROM: 'Leftover <leftover@example.com>',
          PUBLIC_URL: 'https://leftover.example.com/',
          NOTIFY_ALLOW_PRIVATE_URLS: 'true',
          TZ: 'US/Pacific',
        },
        '/srv/leftover',
      );
      expect(config.notifications).toEqual({
        smtpUrl: 'smtps://apikey:secret@smtp.example.com:465',
        mailFrom: 'Leftover <leftover@example.com>',
        publicUrl: 'https://leftover.example.com',
        allowPrivateUrls: true,
        // Without VAPID_SUBJECT, the server's own https address.
        vapidSubject: 'https://leftover.example.com',
      });
      // Kept as written, as a user's own zone is (decision 0068).
      expect(config.defaultTimeZone).toBe('US/Pacific');
      expect(loadConfig({ VAPID_SUBJECT: 'mailto:ops@example.com' }, '/srv/leftover').notifications.vapidSubject).toBe(
        'mailto:ops@example.com',
      );
    });

    it('stops on a bad value, naming the variable', () => {
      expect(problemsOf({ SMTP_URL: 'http://smtp.example.com', MAIL_FROM: 'a@example.com' })).toEqual([
        'SMTP_URL: must be an smtp:// or smtps:// URL, like smtps://user:password@smtp.example.com:465',
      ]);
      expect(problemsOf({ SMTP_URL: 'smtp://localhost:25' })).toEqual([
        'MAIL_FROM: required when SMTP_URL is set (the sender of every email), like Leftover <leftover@example.com>',
      ]);
      expect(problemsOf({ MAIL_FROM: 'nobody' })).toEqual(['MAIL_FROM: must be an address, like Leftover <leftover@example.com>']);
      expect(problemsOf({ PUBLIC_URL: 'leftover.example.com' })).toEqual([
        'PUBLIC_URL: must be the http:// or https:// address people open Leftover at, like https://leftover.example.com',
      ]);
      expect(problemsOf({ NOTIFY_ALLOW_PRIVATE_URLS: 'yes' })).toEqual(['NOTIFY_ALLOW_PRIVATE_URLS: must be true or false']);
      expect(problemsOf({ VAPID_SUBJECT: 'http://example.com' })).toEqual([
        'VAPID_SUBJECT: must be a mailto: or https: address, like mailto:you@example.com',
      ]);
      expect(problemsOf({ TZ: 'Mars/Olympus_Mons' })).toEqual(['TZ: must be an IANA time zone, like America/Chicago']);
    });
  });

  describe('the hosts requests may name (issue 34)', () => {
    const production = {
      NODE_ENV: 'production',
      OIDC_ISSUER: 'https://issuer.example.com',
      OIDC_CLIENT_ID: 'leftover-web',
      OIDC_AUDIENCE: 'https://leftover.example.com/api',
    };

    it('checks Host only in production with PUBLIC_URL set: its host and ALLOWED_HOSTS, as a URL spells them', () => {
      expect(loadConfig({ ...production }, '/srv/leftover').allowedHosts).toBeNull();
      expect(
        loadConfig({ PUBLIC_URL: 'https://leftover.example.com', ALLOWED_HOSTS: 'a.example' }, '/srv/leftover').allowedHosts,
      ).toBeNull();
      expect(loadConfig({ ...production, PUBLIC_URL: 'https://Leftover.Example.com:443/' }, '/srv/leftover').allowedHosts).toEqual({
        protocol: 'https:',
        hosts: ['leftover.example.com'],
      });
      const config = loadConfig(
        {
          ...production,
          PUBLIC_URL: 'https://leftover.example.com',
          ALLOWED_HOSTS: ' leftover.internal:3000, LEFTOVER.example.com:443,[::1]:8443 ',
        },
        '/srv/leftover',
      );
      expect(config.allowedHosts).toEqual({ protocol: 'https:', hosts: ['leftover.example.com', 'leftover.internal:3000', '[::1]:8443'] });
    });

    it('stops on ALLOWED_HOSTS it cannot read, or without PUBLIC_URL, naming the variable', () => {
      const message =
        'ALLOWED_HOSTS: must be a comma-separated list of host names, each with a port if need be, like leftover.example.com, leftover.internal:3000';
      for (const bad of [
        'https://leftover.example.com',
        'leftover.example.com/path',
        'user@leftover.example.com',
        'a.example,,b.example',
        'a b',
      ]) {
        expect(problemsOf({ PUBLIC_URL: 'https://leftover.example.com', ALLOWED_HOSTS: bad }), bad).toEqual([message]);
      }
      expect(problemsOf({ ALLOWED_HOSTS: 'leftover.example.com' })).toEqual([
        'ALLOWED_HOSTS: needs PUBLIC_URL, the address people open Leftover at (its host is always allowed)',
      ]);
    });
  });
});

describe('loadConfig: the key for bank secrets (issue 37, decision 0080)', () => {
  const key = Buffer.alloc(32, 7);

  it('reads SECRETS_KEY as 32 bytes; without it, a key file beside the SQLite database, or none on PostgreSQL', () => {
    expect(loadConfig({ SECRETS_KEY: ` ${key.toString('base64')} ` }, '/srv/leftover').secrets).toEqual({ kind: 'key', key });
    expect(
      loadConfig({ SECRETS_KEY: key.toString('base64'), DATABASE_URL: 'postgres://u:p@db/leftover' }, '/srv/leftover').secrets,
    ).toEqual({
      kind: 'key',
      key,
    });
    expect(loadConfig({}, '/srv/leftover').secrets).toEqual({
      kind: 'key-file',
      file: path.resolve('/srv/leftover/data/leftover.sqlite.secrets-key'),
    });
    expect(loadConfig({ SECRETS_KEY: '' }, '/srv/leftover').secrets.kind).toBe('key-file');
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db/leftover' }, '/srv/leftover').secrets).toEqual({ kind: 'none' });
  });

  it('stops on a SECRETS_KEY that is not 32 bytes in base64, naming the variable and not its value', () => {
    const message = 'SECRETS_KEY: must be 32 random bytes in base64 (44 characters), like the output of: openssl rand -base64 32';
    for (const bad of [
      Buffer.alloc(31, 7).toString('base64'),
      Buffer.alloc(33, 7).toString('base64'),
      key.toString('base64url'),
      key.toString('base64').replace(/=$/, ''),
      key.toString('hex'),
      'correct horse battery staple correct horse b',
    ]) {
      const problems = problemsOf({ SECRETS_KEY: bad });
      expect(problems, bad).toEqual([message]);
      expect(problems.join('\n')).not.toContain(bad);
    }
  });
});
