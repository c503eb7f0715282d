/**
 * A built page in miniature, what registerPage serves, so the edge's tests need no `npm run build`:
 * index.html loading one hashed script, that script, a service worker, and any other files a test
 * names; and raw HTTP for requests no client would send.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const MINIATURE_SCRIPT = '/assets/app-1a2b3c.js';

/** A new folder holding the page; `extra` maps paths under it to their text. The caller removes it. */
export function miniatureWebRoot(extra: Readonly<Record<string, string>> = {}): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-web-'));
  const files: Record<string, string> = {
    'index.html': `<!doctype html><html lang="en"><head><script type="module" src="${MINIATURE_SCRIPT}"></script></head><body></body></html>`,
    [MINIATURE_SCRIPT.slice(1)]: 'console.log("leftover");',
    'sw.js': 'self.addEventListener("install", () => {});',
    ...extra,
  };
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

/** Sends raw bytes over TCP and reads the whole answer, until the server closes the socket. */
export function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve(answer) : reject(error)));
  });
}

export function parseRawAnswer(answer: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}
