/**
 * Imported by main.tsx before anything else: ES modules run in the order they are imported, so the
 * view's first calls leave before React's DOM, the app and the view's code are evaluated (decision
 * 0109), not after, as they did when main.tsx sent them itself.
 */
import { sendFirstReads } from './first-reads.js';

sendFirstReads();
