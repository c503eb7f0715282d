/**
 * The stack's limit for benchmark 1: a Fastify instance started like Leftover's (same logger
 * settings, same host, its own process) whose one route answers a ledger already in memory through
 * the same serializer (src/server/http/answer-serializer.ts) and response schema. No token, no database,
 * no other plugin.
 *
 * Environment: PORT, HOST, LOG_LEVEL, LEDGER_FILE (the JSON answer of retrieve-ledger to serve).
 */
import fs from 'node:fs';
import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { answerSerializerCompiler } from '../../src/server/http/answer-serializer.js';
import { LEDGER_PATHS, ledgerInfoSchema } from '../../src/contract/ledger.js';

const ledgerFile = process.env.LEDGER_FILE;
if (!ledgerFile) throw new Error('LEDGER_FILE must name the ledger answer to serve');
// Parsed by the same schema, so the object in memory is the one Leftover's route serializes.
const ledgerInfo = ledgerInfoSchema.parse(JSON.parse(fs.readFileSync(ledgerFile, 'utf8')));

const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'info' }, trustProxy: false }).withTypeProvider<ZodTypeProvider>();
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(answerSerializerCompiler);
app.get(LEDGER_PATHS.retrieve, { schema: { response: { 200: ledgerInfoSchema } } }, async () => ledgerInfo);
app.get('/ready', async () => ({ ready: true }));

const shutdown = () => void app.close().then(() => process.exit(0));
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? 'localhost' });
