/**
 * Preloaded into a benchmark's server with BENCH_SERVER_REQUEST_LOG=<file> (server-process.ts), never
 * by a start of the product: one line per request, appended to the file, saying where the request's
 * time went until its answer's head was set (`writeHead` called; for a compressed or streamed answer
 * its first bytes may leave later). Each line: the wall-clock start (ms since the epoch, to line up
 * with a page's Resource Timing in BENCH_TRACE's `@`), then
 *  - `head`: ms from the request's headers parsed to `writeHead`;
 *  - `run`: ms the server's main thread ran meanwhile, and `queued`: ms it was ready but waited for
 *    a processor (Linux's schedstat of the thread); run + queued ≈ head when nothing else is waited on;
 *  - `idle`: ms the event loop waited for input meanwhile (a database or a thread answering);
 *  - the method and the first 60 characters of the path and query.
 * A diagnostic with a cost of its own: two reads of /proc on the main thread per request, and a
 * write of the lines every half second. The server's background processes (the bank sync's) inherit
 * NODE_OPTIONS and load it too; they serve no HTTP, so they write nothing.
 * On benchmark 12's machine (2 cores, the browser beside the server) this showed the Ledger's window
 * answer running 5 ms and waiting 2 to 13 ms for a processor (docs/PERFORMANCE.md, stop 64).
 */
import dc from 'node:diagnostics_channel';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';

const file = process.env.BENCH_SERVER_REQUEST_LOG;
/** Linux only; elsewhere the run and queued columns say `-`. */
const schedstatPath = `/proc/self/task/${process.pid}/schedstat`;
const hasSchedstat = fs.existsSync(schedstatPath);

/** [ns run, ns waited on the run queue] of the main thread. */
function schedstat() {
  if (!hasSchedstat) return undefined;
  const [run, queued] = fs.readFileSync(schedstatPath, 'utf8').split(' ').map(Number);
  return [run, queued];
}

const lines = [];
const flush = () => {
  if (lines.length > 0) fs.appendFileSync(file, `${lines.splice(0).join('\n')}\n`);
};

if (file) {
  dc.subscribe('http.server.request.start', ({ request, response }) => {
    const startedAt = performance.timeOrigin + performance.now();
    const started = performance.now();
    const loop = performance.eventLoopUtilization();
    const thread = schedstat();
    const writeHead = response.writeHead;
    response.writeHead = function headWritten(...args) {
      response.writeHead = writeHead;
      const now = schedstat();
      const idle = performance.eventLoopUtilization(loop).idle;
      const ms = (ns) => (ns / 1e6).toFixed(1);
      const threadColumns = thread && now ? `run ${ms(now[0] - thread[0])} queued ${ms(now[1] - thread[1])}` : 'run - queued -';
      lines.push(
        `${startedAt.toFixed(1)} head ${(performance.now() - started).toFixed(1)} ${threadColumns} idle ${idle.toFixed(1)} ${request.method} ${request.url.slice(0, 60)}`,
      );
      return writeHead.apply(this, args);
    };
  });
  setInterval(flush, 500).unref();
  process.on('exit', flush);
}
