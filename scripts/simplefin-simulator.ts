// `npm run simplefin:simulator [-- --port <port>] [--scenario <name>]`: a SimpleFIN v2 server on
// 127.0.0.1 to try bank sync on one machine (README, "Try bank sync on one machine"; issue 37). It
// prints a Setup Token to paste into Leftover's Settings, and runs until Ctrl+C. Its control API
// (tests/support/simplefin-simulator.ts, CONTROL) switches scenarios, steps them and sets its clock.
import { SCENARIOS, type ScenarioName, startSimplefinSimulator } from '../tests/support/simplefin-simulator.js';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? undefined : process.argv[index + 1];
}

const portText = option('port') ?? '0';
const scenario = option('scenario') ?? 'default';
if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
  console.error('--port must be a port number (0 for any free one).');
  process.exit(1);
}
if (!(SCENARIOS as readonly string[]).includes(scenario)) {
  console.error(`--scenario must be one of: ${SCENARIOS.join(', ')}`);
  process.exit(1);
}

const simulator = await startSimplefinSimulator({ port: Number(portText) });
simulator.scenario(scenario as ScenarioName);
const control = `${simulator.origin}/control`;
console.log(`SimpleFIN simulator at ${simulator.origin}/simplefin, playing "${scenario}".`);
console.log('Leftover reaches it only when started with NOTIFY_ALLOW_PRIVATE_URLS=true (it is on this machine).');
console.log(`Setup Token: ${simulator.setupToken()}`);
console.log(`Another token:     curl -X POST ${control}/setup-token`);
console.log(`Post the pendings: curl -X POST ${control}/step`);
console.log(`Another scenario:  curl -X POST ${control}/scenario -d '{"name":"pending-posted-tip"}'  (${SCENARIOS.join(', ')})`);
console.log(`A day later:       curl -X POST ${control}/clock -d '{"advanceSeconds":86400}'`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void simulator.close().then(() => process.exit(0));
  });
}
