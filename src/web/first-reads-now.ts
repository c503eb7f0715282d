/**
 * Imported by main.tsx before anything else: ES modules run in the order they are imported, so the
 * view's first calls leave before React's DOM, the app and the view's code are evaluated (decision
 * 0109), not after, as they did when main.tsx sent them itself. In the built page the HTML's own
 * script has sent them already, as the document was parsed (decision 0121): they are taken from it.
 */
// first-reads.ts first: what it imports from the shared chunk runs before this file's own modules,
// and the bundler keeps that order without splitting them into files of their own.
import { sendFirstReads } from './first-reads.js';
import { dropUntakenEarlyCalls, firstReadsSentByTheDocument } from './api/early-calls.js';
import { afterFirstPaint } from './first-paint.js';

if (!firstReadsSentByTheDocument()) sendFirstReads();
// Whatever the view did not ask for by its first paint it never will.
afterFirstPaint(dropUntakenEarlyCalls);
