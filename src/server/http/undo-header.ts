/** The Leftover-Undo header of an undoable write's answer (decision 0040). */
import type { FastifyReply } from 'fastify';
import { UNDO_HEADER } from '../../contract/common.js';

/** Names the token that undoes this write; a write that changed nothing has none, and no header. */
export function tagUndo(reply: FastifyReply, token: string | undefined): void {
  if (token !== undefined) reply.header(UNDO_HEADER, token);
}
