/**
 * The app factory: what `npm start` runs and what every API test injects into, with the same
 * settings. Plugins in layers: security and parsing, sign-in, the database, then the routes.
 */
import path from 'node:path';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { answerSerializerCompiler } from './http/answer-serializer.js';
import type { JWTVerifyGetKey } from 'jose';
import type { KyselyPlugin } from 'kysely';
import { APP_CONFIG_PATH, type AppConfig } from '../contract/app-config.js';
import { API_PREFIX } from '../contract/common.js';
import type { ErrorBody } from '../contract/errors.js';
import { type AccessTokenVerifier, createAccessTokenVerifier, createDiscoveredKeySet, createLocalKeySet } from './auth/access-token.js';
import { registerDevProvider } from './auth/dev-provider.js';
import { registerHostCheck, registerNoStoreByDefault, requestLogSerializer } from './http/edge.js';
import { actorOfCaller, chargeRowsTouched, registerTokenCheck } from './http/api-scope.js';
import type { AppConfiguration, TrustProxy } from './config.js';
import { type OpenDatabase, openDatabase } from './db/database.js';
import { ensurePrivateFolder } from './db/private-files.js';
import { FileWorkPool } from './file-work/file-work-pool.js';
import { createClientErrorHandler, createFrameworkErrorHandler, handleError } from './http/http-errors.js';
import { registerOpenApi } from './http/openapi.js';
import { registerHealthChecks } from './operations/health.js';
import { RequestBudgetStore } from './operations/request-budget-store.js';
import { registerPage } from './http/page.js';
import { createRateLimits, type RateLimitBudget } from './http/rate-limit.js';
import { securityHeaders } from './http/security-headers.js';
import { inlineScriptSources } from './http/page.js';
import { yourDataRoutes } from './your-data/routes.js';
import { accountsRoutes } from './accounts/routes.js';
import { AccountsService } from './accounts/accounts-service.js';
import { BankConnectionStore } from './bank/bank-connection-store.js';
import { BankScheduler, startBankTimer } from './bank/bank-scheduler.js';
import { BankService } from './bank/bank-service.js';
import { unitsInProcess } from './bank/bank-sync-unit.js';
import { BankSyncProcess } from './bank-sync-runner.js';
import { BigWriteThread } from './big-write-thread.js';
import { bankRoutes } from './bank/routes.js';
import { BudgetService } from './budgets/budget-service.js';
import { budgetRoutes } from './budgets/routes.js';
import { memberNamesOf, notifiedBudgetsOf } from './budgets/budget-store.js';
import { activityRoutes } from './activity/routes.js';
import { YourDataService } from './your-data/your-data-service.js';
import { replanDay } from './profile/user-settings-store.js';
import { depositRoutes } from './deposits/routes.js';
import { expenseRoutes } from './expenses/routes.js';
import { ledgerRoutes } from './ledger/routes.js';
import { profileRoutes } from './profile/routes.js';
import { firstReadsRoutes } from './first-reads/routes.js';
import { userOutlook, userToday } from './profile/user-today.js';
import { LedgerWrites, type OutlookReader, type TodayReader } from './ledger/index.js';
import { readLedgerSchedules } from './ledger-schedules.js';
import { ChannelDelivery } from './notifications/channel-delivery.js';
import { issueLink } from './notifications/channel-links.js';
import type { PushSender } from './notifications/delivery.js';
import { createEmailSender } from './notifications/email-sender.js';
import { NotificationService } from './notifications/notification-service.js';
import { NotificationOutbox, type RunSummary, startOutboxTimer } from './notifications/outbox-service.js';
import { notificationLinkRoutes, notificationRoutes } from './notifications/routes.js';
import { statementRoutes } from './statements/routes.js';
import { undoRoutes } from './undo/routes.js';
import { startLiveChanges } from './live/live-changes.js';
import { liveRoutes, registerChangePublishing } from './live/live-routes.js';
import { WalCheckpoints } from './wal-checkpoints.js';

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
  readonly notifications?: NotificationOptions;
  /** How often each process's bank schedule ticks: a minute; 0 runs no timer (tests call runBankSchedule). */
  readonly bank?: { readonly everyMs?: number };
}

/** How notifications run (decision 0051); tests shorten the waits and drive the outbox themselves. */
export interface NotificationOptions {
  /** How often each process plans (its rounds start as a multiple of it begins), sending between rounds: a minute; 0 runs no timer (tests call runNotifications). */
  readonly everyMs?: number;
  /** A webhook's whole exchange: 5 s. */
  readonly webhookTimeoutMs?: number;
  /** How long a sender holds a claimed channel and message. */
  readonly leaseMs?: number;
  /** Sends one process has under way at once: 10 (decision 0070). */
  readonly sendConcurrency?: number;
  /** Of those, at most this many of one user's: 2. */
  readonly sendsPerUser?: number;
  /** Makes the web push sender (VAPID keys kept in the database); without it push is not offered. */
  readonly pushSender?: (database: OpenDatabase, config: AppConfiguration) => Promise<PushSender>;
}

/** Plans and sends what is due now, on the app's clock: one round of the minute's timer. */
export function runNotifications(app: FastifyInstance): Promise<RunSummary> {
  return app.notificationOutbox.runOnce();
}

declare module 'fastify' {
  interface FastifyInstance {
    database: OpenDatabase;
    now: () => Date;
    /** The caller's today in their own time zone, on the app's clock (decision 0047). */
    todayOf: TodayReader;
    /** The caller's today, "Keep at least" and everyday spending: what an account's outlook reads of them (issue 36). */
    outlookOf: OutlookReader;
    /** Runs every ledger write as one unit of work (decision 0064). */
    ledgerWrites: LedgerWrites;
    /** Worker threads for untrusted files: statements and restores are read there (issue 22). */
    fileWork: FileWorkPool;
    /** Plans and sends notifications (decision 0051). */
    notificationOutbox: NotificationOutbox;
    /** Syncs bank connections on the server's schedule (decision 0082). */
    bankScheduler: BankScheduler;
    /** SQLite's log folded back by a thread of its own (decision 0125); undefined on PostgreSQL. */
    walCheckpoints: WalCheckpoints | undefined;
  }
}

/** One tick of the bank schedule, on the app's clock: what the minute's timer does. Answers the connections synced. */
export function runBankSchedule(app: FastifyInstance): Promise<number> {
  return app.bankScheduler.tick();
}

/**
 * Fastify reads a hop count as proxy-addr does (believe the nearest N hops), but its types only take
 * the count as the function it stands for.
 */
function trustProxyOption(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

export async function buildApp(config: AppConfiguration, options: AppOptions = {}): Promise<FastifyInstance> {
  const webRoot = options.webRoot ?? path.resolve('dist/web');
  const headers = securityHeaders(config, inlineScriptSources(webRoot));
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization'],
            // Addresses without their query values: tokens and codes travel there (decision 0027).
            serializers: { req: requestLogSerializer },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    bodyLimit: BODY_LIMIT_BYTES,
    // A path parameter may be as long as the longest id a route accepts: a bridge's account id is up
    // to 255 characters (bank connections' remoteId), past Fastify's default of 100, which refused it
    // before any route could say why. Past this, the address is refused as not valid.
    routerOptions: { maxParamLength: 512 },
    trustProxy: trustProxyOption(config.trustProxy),
    // A request that arrives on a busy connection while SIGTERM drains is served (with Connection:
    // close), not refused: it was accepted, and /readyz already tells the balancer to go elsewhere.
    return503OnClosing: false,
    frameworkErrors: createFrameworkErrorHandler(headers.bare),
    clientErrorHandler: createClientErrorHandler(headers.bare),
    // A slow or silent client cannot hold a connection open (decision 0027): the whole request within
    // requestTimeout (past it, 408 through clientErrorHandler), no traffic for connectionTimeout, and
    // keepAliveTimeout between requests.
    requestTimeout: config.timeouts.requestMs,
    connectionTimeout: config.timeouts.connectionMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    http: {
      // A request without Host reaches our hook (registerHostCheck) and gets our refusal, not Node's bare 400.
      requireHostHeader: false,
      requestTimeout: config.timeouts.requestMs,
      headersTimeout: config.timeouts.requestMs,
      // Node checks for late requests on this interval (30 s by default), so it bounds how late the 408 comes.
      connectionsCheckingInterval: Math.min(1_000, Math.max(100, Math.floor(config.timeouts.requestMs / 4))),
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializerCompiler);
  app.setErrorHandler(handleError);
  const now = options.now ?? (() => new Date());
  app.decorate('now', now);
  app.decorate('todayOf', userToday(config.defaultTimeZone, now));
  app.decorate('outlookOf', userOutlook(config.defaultTimeZone, now));

  await app.register(helmet, headers.helmet);
  registerNoStoreByDefault(app);
  registerHostCheck(app, config.allowedHosts);
  // Brotli or gzip as the client asks, for every answer above 1 KB (the plugin's threshold) and
  // the page's files; compressed request bodies are not accepted, so the body limit means bytes read.
  await app.register(compress, { encodings: ['br', 'gzip'], globalDecompression: false, syncThreshold: 65_536 });
  await registerOpenApi(app);

  // The data folder the defaults create is the server's alone (decision 0027); the provider's keys may be first in it.
  if (config.database.kind === 'sqlite') ensurePrivateFolder(path.dirname(config.database.file));
  if (config.oidc.kind === 'embedded') ensurePrivateFolder(path.dirname(config.oidc.keysFile));

  let keySet: JWTVerifyGetKey;
  if (config.oidc.kind === 'embedded') {
    // The provider runs in this process, so its public keys are checked without a network hop.
    keySet = createLocalKeySet((await registerDevProvider(app, config.oidc, config.nodeEnv)).publicKeys);
  } else {
    keySet = createDiscoveredKeySet(config.oidc.issuer);
  }
  const verifyAccessToken =
    options.verifyAccessToken ?? createAccessTokenVerifier({ issuer: config.oidc.issuer, audience: config.oidc.audience, keySet });

  const opened = await openDatabase(config.database);
  const database: OpenDatabase = options.queryObserver ? { ...opened, db: opened.db.withPlugin(options.queryObserver) } : opened;
  app.decorate('database', database);
  // The ledger is handed its schedules: it never imports deposits or expenses (decision 0033).
  // Rows a write touched are charged to the call it came with (issue 34).
  const ledgerWrites = new LedgerWrites(
    database,
    () => app.now(),
    { schedules: readLedgerSchedules, todayOf: app.todayOf },
    chargeRowsTouched,
    actorOfCaller,
  );
  app.decorate('ledgerWrites', ledgerWrites);
  // What a big restore left in no account when the process stopped midway (decision 0072). SQLite serves one
  // process; on PostgreSQL nothing is staged or detached, so a ledger in no account there is garbage of no one's work.
  await ledgerWrites.dropGarbage();
  // SQLite's log folded back into its file by a thread of its own, not inside a request's commit (decision 0125).
  const checkpoints = config.database.kind === 'sqlite' ? new WalCheckpoints(config.database.file, app.log) : undefined;
  app.decorate('walCheckpoints', checkpoints);
  app.addHook('onClose', async () => {
    await checkpoints?.close();
    await database.close();
  });
  registerHealthChecks(app);
  const fileWork = new FileWorkPool(config.fileWorkers, app.log);
  app.decorate('fileWork', fileWork);
  app.addHook('onClose', async () => fileWork.close());

  // Notifications (issue 26, decision 0051): the senders, the API's service, and the outbox every process runs.
  const { smtpUrl, mailFrom } = config.notifications;
  const email = smtpUrl !== undefined && mailFrom !== undefined ? createEmailSender(smtpUrl, mailFrom) : null;
  const push = options.notifications?.pushSender ? await options.notifications.pushSender(database, config) : null;
  const delivery = new ChannelDelivery(config.notifications, email, push, options.notifications?.webhookTimeoutMs, (channelId, purpose) =>
    issueLink(database.db, channelId, purpose, now()),
  );
  app.addHook('onClose', async () => delivery.close());
  const notifications = new NotificationService(database, now, config.defaultTimeZone, delivery);
  const outbox = new NotificationOutbox(database, now, config.defaultTimeZone, delivery, {
    ...(options.notifications?.leaseMs !== undefined && { leaseMs: options.notifications.leaseMs }),
    ...(options.notifications?.sendConcurrency !== undefined && { sendConcurrency: options.notifications.sendConcurrency }),
    ...(options.notifications?.sendsPerUser !== undefined && { sendsPerUser: options.notifications.sendsPerUser }),
    onError: (error) => app.log.error({ err: error }, 'a notification could not be sent'),
    // A member's day covers the budgets they share too, by their own channels and rules (decision 0095).
    budgetsToldOf: (person) => notifiedBudgetsOf(database.db, person),
  });
  app.decorate('notificationOutbox', outbox);
  const everyMs = options.notifications?.everyMs ?? 60_000;
  if (everyMs > 0) {
    let stop: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      stop = startOutboxTimer(outbox, everyMs, now, (error) => app.log.error({ err: error }, 'a notification round failed'));
    });
    // Before the database closes: a round in progress finishes first.
    app.addHook('preClose', async () => stop?.());
  }

  // Changes seen live (issue 38 point 6, decision 0096): streams find the budget as the /api scope does.
  const live = await startLiveChanges({
    database: config.database,
    db: opened.db,
    findBudget: (user, id) => budgets.find(user, id),
    connectionMs: config.timeouts.connectionMs,
    onError: (error, what) => app.log.warn({ err: error }, what),
  });
  // Before the server waits for answers to finish: an open stream would never finish.
  app.addHook('preClose', async () => live.close());

  // Bank sync (issue 37, decision 0082): the service the routes and the schedule share.
  const accountsForBank = new AccountsService(database, ledgerWrites);
  const bankStore = new BankConnectionStore(database.db);
  // A sync reads the bridge's answers in a process of its own, and on SQLite its ledgers too (decisions 0098, 0115).
  const bankProcess = new BankSyncProcess(app.log);
  const bankUnits =
    config.database.kind === 'sqlite' && database.whileWritesWait
      ? bankProcess.units({
          file: config.database.file,
          database,
          defaultTimeZone: config.defaultTimeZone,
          now,
          charge: chargeRowsTouched,
          actorOf: actorOfCaller,
        })
      : unitsInProcess({ writes: ledgerWrites, store: bankStore });
  app.addHook('onClose', async () => bankProcess.close());
  // A restore and a big undo run in a thread of their own, with its own connection (decision 0103).
  const bigWrites = new BigWriteThread(
    { where: config.database, database, defaultTimeZone: config.defaultTimeZone, now, charge: chargeRowsTouched, actorOf: actorOfCaller },
    app.log,
  );
  app.addHook('onClose', async () => bigWrites.close());
  const bank = new BankService({
    database,
    units: bankUnits,
    bridge: { readAnswer: bankProcess.readAnswer },
    store: bankStore,
    now,
    defaultTimeZone: config.defaultTimeZone,
    secrets: config.secrets,
    allowPrivateUrls: config.notifications.allowPrivateUrls,
    addAccount: (owner, fields) => accountsForBank.add(owner, fields),
    // Who connected each bank, by the name the members list shows (decision 0106).
    memberNames: (owner) => memberNamesOf(database.db, owner),
    // The shortfall and bills-due checks run once more for the user, through the outbox (issue 37 item 6).
    ledgerChanged: (owner) => {
      // The members' open pages load the synced rows quietly (decision 0096).
      live.bus
        .publish({ owner, actor: null, by: null, text: null })
        .catch((error: unknown) => app.log.warn({ err: error }, 'a bank sync could not be told to the other processes'));
      return replanDay(database.db, owner, now()).catch((error: unknown) => {
        // The sync is written: a failure to ask only delays the checks to the user's next day.
        app.log.warn({ err: error }, 'a bank sync could not ask for notifications');
      });
    },
  });
  const bankScheduler = new BankScheduler(bankStore, bank, now, (error) => app.log.error({ err: error }, 'a scheduled bank sync failed'));
  app.decorate('bankScheduler', bankScheduler);
  const bankEveryMs = options.bank?.everyMs ?? 60_000;
  if (bankEveryMs > 0) {
    let stopBank: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      stopBank = startBankTimer(bankScheduler, bankEveryMs, (error) => app.log.error({ err: error }, 'a bank schedule round failed'));
    });
    // Before the database closes: a sync under way finishes first.
    app.addHook('preClose', async () => stopBank?.());
  }

  const pageConfig: AppConfig = {
    oidc: { issuer: config.oidc.issuer, clientId: config.oidc.clientId, audience: config.oidc.audience },
    developmentSignIn: config.oidc.kind === 'embedded',
  };
  app.get(APP_CONFIG_PATH, async (_request, reply) => reply.header('Cache-Control', 'no-store').send(pageConfig));

  const budget: RateLimitBudget = {
    perUserPerMinute: config.rateLimit.perUserPerMinute,
    unauthenticatedPerMinute: config.rateLimit.unauthenticatedPerMinute,
    windowMs: 60_000,
    ...options.rateLimit,
  };
  // On PostgreSQL every process spends one budget per user and address, counted in the database
  // (decision 0071), through the handle without the query observer: counting a call is not the
  // call's own work. SQLite serves one process, which counts in memory.
  const budgetStore =
    opened.kind === 'postgres'
      ? new RequestBudgetStore(opened.db, (error) => app.log.warn({ err: error }, 'request budget counters could not be written'))
      : undefined;
  // onClose hooks run last registered first: this one once the requests are done, before the database closes.
  if (budgetStore) app.addHook('onClose', async () => budgetStore.close());
  const rateLimits = createRateLimits(budget, budgetStore);
  // Budgets shared with a partner (issue 38, decision 0088): the /api scope finds the budget each call
  // names through this service; deleting a shared budget deletes its data as "delete everything" does.
  const yourDataOfBudgets = new YourDataService(database, now, ledgerWrites);
  const budgets = new BudgetService(
    database,
    now,
    config.notifications.publicUrl,
    (owner, last) => yourDataOfBudgets.delete(owner, last),
    // An invitation is mailed through the notifications' SMTP server (decision 0105).
    email,
  );
  await app.register(
    async (api) => {
      registerTokenCheck(api, verifyAccessToken, rateLimits, (user, id) => budgets.find(user, id));
      registerChangePublishing(api, live.bus);
      await api.register(profileRoutes, { defaultTimeZone: config.defaultTimeZone });
      await api.register(depositRoutes);
      await api.register(expenseRoutes);
      await api.register(ledgerRoutes, {
        createElsewhere: (owner, account, fields, expected) => bigWrites.create(owner, account, fields, expected),
      });
      await api.register(statementRoutes);
      await api.register(yourDataRoutes, {
        deleteEverything: (user, budget) => budgets.deleteEverything(user, budget),
        restoreElsewhere: (owner, data) => bigWrites.restore(owner, data),
      });
      await api.register(undoRoutes, { elsewhere: (owner, member, token) => bigWrites.undo(owner, member, token) });
      await api.register(accountsRoutes);
      await api.register(notificationRoutes, { notifications, delivery });
      await api.register(bankRoutes, { bank });
      await api.register(budgetRoutes, { budgets });
      await api.register(activityRoutes);
      await api.register(liveRoutes, { streams: live.streams });
      await api.register(firstReadsRoutes);
      api.setNotFoundHandler((request, reply) => {
        // The request's own path is not echoed back: an answer never repeats what a caller made up.
        const body: ErrorBody = { error: { code: 'not_found', message: `There is no such API call (${request.method}).` } };
        return reply.code(404).send(body);
      });
    },
    { prefix: API_PREFIX },
  );

  // An email's confirm and unsubscribe links: outside /api, no token (the link's secret is the proof).
  await app.register(async (scope) => notificationLinkRoutes(scope, { notifications }));

  registerPage(app, webRoot, { serveSourceMaps: config.serveSourceMaps });
  return app;
}
