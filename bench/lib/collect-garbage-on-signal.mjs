/**
 * Preloaded into the server by benchmark 6 only (NODE_OPTIONS="--import ..."), never by a start of
 * the product: on SIGWINCH (which the server does not use: it closes on SIGUSR2), a full garbage collection that also hands free memory back to the
 * system, through the inspector protocol's HeapProfiler.collectGarbage (V8's low-memory
 * notification), in the process itself: no inspector port is opened and no flag such as
 * --expose-gc is needed. The resident memory read after it is what the server keeps, not what V8
 * last sized its heap to (decision 0118).
 */
import inspector from 'node:inspector';

process.on('SIGWINCH', () => {
  const session = new inspector.Session();
  session.connect();
  session.post('HeapProfiler.collectGarbage', () => {
    // Not from inside the protocol's own callback: disconnecting there left the process stuck.
    setImmediate(() => session.disconnect());
  });
});
