#!/usr/bin/env node
// `npm start`: build the page and the server when the sources are newer than the build, then run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const inputs = [
  'src',
  'package.json',
  'package-lock.json',
  'vite.config.ts',
  'tsconfig.base.json',
  'tsconfig.server.json',
  'scripts/build-server.mjs',
];

function newestModification(target) {
  if (!fs.existsSync(target)) return 0;
  const stats = fs.statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestModification(path.join(target, entry)));
  return newest;
}

function run(command, args) {
  const result = spawnSync(process.execPath, [path.join(root, command), ...args], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const builtAt = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
const sourcesAt = Math.max(...inputs.map((input) => newestModification(path.join(root, input))));
if (builtAt < sourcesAt || !fs.existsSync(path.join(root, 'dist/web/index.html'))) {
  console.log('Building Leftover (page and server)...');
  run('node_modules/vite/bin/vite.js', ['build', '--logLevel', 'warn']);
  run('scripts/build-server.mjs', []);
  fs.writeFileSync(stamp, new Date().toISOString());
}

await import(path.join(root, 'dist/server/server/main.js'));
