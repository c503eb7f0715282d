/**
 * What a describe block of process tests runs against: the loopback test issuer, a fresh database,
 * and the built server processes its tests start on them. Everything is stopped, closed and dropped
 * after the block, whatever failed, the processes first.
 */
import { afterAll, beforeAll } from 'vitest';
import { assertServerBuilt, type ServerProcess, type ServerProcessOptions, startServerProcess } from './server-process.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './test-databases.js';
import { startTestIssuer, type TestIssuer } from './test-issuer.js';

export interface ProcessRun {
  readonly issuer: TestIssuer;
  readonly database: TestDatabase;
  /** Starts the built server on this database and issuer (a restart reuses a port); stopped after the block. */
  start(options?: Pick<ServerProcessOptions, 'port' | 'env' | 'entry'>): Promise<ServerProcess>;
}

/** Registers the block's set-up and clean-up; the function answers the run once it has started. */
export function processRunOn(kind: DatabaseKind): () => ProcessRun {
  let run: ProcessRun | undefined;
  const started: ServerProcess[] = [];
  beforeAll(async () => {
    assertServerBuilt();
    const issuer = await startTestIssuer();
    const database = await createTestDatabase(kind);
    run = {
      issuer,
      database,
      async start(options = {}) {
        const server = await startServerProcess({ databaseUrl: database.url, issuer, ...options });
        started.push(server);
        return server;
      },
    };
  });
  afterAll(async () => {
    // A process that already exited (killed, or stopped by its test) stops at once.
    for (const server of started) await server.stop();
    await run?.issuer.close();
    await run?.database.drop();
  });
  return () => {
    if (!run) throw new Error('the issuer and the database did not start');
    return run;
  };
}
