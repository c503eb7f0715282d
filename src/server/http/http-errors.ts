/**
 * The one error handler: every failure leaves as the contract's JSON error body. Domain errors
 * (thrown by the domain, services and repositories, which know nothing of HTTP) get their status
 * code here; anything unexpected answers 500 without internals (the detail goes to the log).
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody } from '../../contract/errors.js';
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  GoneError,
  InvalidInputError,
  NotFoundError,
  StaleVersionError,
  TooLargeError,
  TooManyRequestsError,
} from '../../domain/errors.js';
import { InvalidTokenError, KeySetUnavailableError } from '../auth/access-token.js';

type ErrorCode = ErrorBody['error']['code'];

function fieldErrorsBody(message: string, fields: Record<string, string>): ErrorBody {
  return { error: { code: 'bad_request', message, fields } };
}

function send(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

const INTERNAL_ERROR: ErrorBody = {
  error: { code: 'internal_error', message: 'Something went wrong on our side. Try again; if it keeps happening, tell us.' },
};

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  429: 'too_many_requests',
};

/**
 * Bad input is 400 with its fields, a call the caller's role in the budget does not allow 403, a missing row 404, a refused change 409, something that can no
 * longer be done (an undo past its time) 410, a write against a version that is no longer current
 * (If-Match) 412, input over a size limit 413.
 */
function domainErrorAnswer(error: DomainError): { status: number; body: ErrorBody } | undefined {
  if (error instanceof InvalidInputError) return { status: 400, body: fieldErrorsBody(error.message, { ...error.fields }) };
  if (error instanceof ForbiddenError) return { status: 403, body: { error: { code: 'forbidden', message: error.message } } };
  if (error instanceof NotFoundError) return { status: 404, body: { error: { code: 'not_found', message: error.message } } };
  if (error instanceof ConflictError) return { status: 409, body: { error: { code: 'conflict', message: error.message } } };
  if (error instanceof GoneError) return { status: 410, body: { error: { code: 'gone', message: error.message } } };
  if (error instanceof StaleVersionError) {
    return { status: 412, body: { error: { code: 'precondition_failed', message: error.message } } };
  }
  if (error instanceof TooLargeError) {
    return {
      status: 413,
      body: { error: { code: 'payload_too_large', message: error.message, fields: { [error.field]: error.message } } },
    };
  }
  return undefined;
}

export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    for (const issue of error.validation) {
      const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || (error.validationContext ?? 'body');
      fields[key] ??= issue.message ?? 'This value is not valid.';
    }
    return send(reply, 400, fieldErrorsBody('Some fields need attention.', fields));
  }
  const domainAnswer = error instanceof DomainError ? domainErrorAnswer(error) : undefined;
  if (domainAnswer) return send(reply, domainAnswer.status, domainAnswer.body);
  if (error instanceof TooManyRequestsError) {
    reply.header('Retry-After', String(error.retryAfterSeconds));
    return send(reply, 429, { error: { code: 'too_many_requests', message: error.message } });
  }
  if (error instanceof InvalidTokenError) {
    reply.header('WWW-Authenticate', `Bearer error="invalid_token", error_description="${error.message.replaceAll('"', "'")}"`);
    return send(reply, 401, { error: { code: 'unauthorized', message: error.message } });
  }
  if (error instanceof KeySetUnavailableError) {
    request.log.error({ err: error }, 'token check could not reach the provider');
    reply.header('Retry-After', '5');
    return send(reply, 503, {
      error: { code: 'service_unavailable', message: 'Sign-in checking is unavailable right now. Try again shortly.' },
    });
  }
  const status = error.statusCode ?? 500;
  if (status === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return send(reply, 413, { error: { code: 'payload_too_large', message: 'The request body is too large.' } });
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return send(reply, 400, fieldErrorsBody('The request body must be JSON.', { body: 'Send Content-Type: application/json.' }));
  }
  if (status === 429) {
    return send(reply, 429, {
      error: { code: 'too_many_requests', message: error.message || 'Too many requests. Slow down and try again shortly.' },
    });
  }
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (malformed JSON, empty body): the message is safe to show.
    const code = CODE_BY_STATUS[status] ?? 'bad_request';
    const message = error.code?.startsWith('FST_ERR_CTP') ? 'The request body is not valid JSON.' : error.message;
    return send(
      reply,
      CODE_BY_STATUS[status] ? status : 400,
      code === 'bad_request' ? fieldErrorsBody(message, { body: message }) : { error: { code, message } },
    );
  }
  request.log.error({ err: error }, 'unexpected error');
  return send(reply, 500, INTERNAL_ERROR);
}

/** Headers as name and value, for the answers that leave before helmet's hook could add them. */
export type BareAnswerHeaders = Readonly<Record<string, string>>;

/**
 * Fastify's own early refusals (an undecodable URL such as /api/deposits/%E0%A4%A) bypass the
 * hooks and the error handler; without this they answer Fastify's default body instead of ours.
 */
export function createFrameworkErrorHandler(headers: BareAnswerHeaders) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.headers(headers);
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      void send(
        reply,
        400,
        fieldErrorsBody('The address is not valid.', { url: 'The address contains a malformed %-escape or character.' }),
      );
      return;
    }
    request.log.error({ err: error }, 'unexpected framework error');
    void send(reply, 500, INTERNAL_ERROR);
  };
}

/**
 * A request Node cannot even parse (a broken request line, headers over the size limit) is
 * answered on the socket itself, still with the JSON error body.
 */
export function createClientErrorHandler(headers: BareAnswerHeaders) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const message =
      status === 431
        ? 'The request headers are too large.'
        : status === 408
          ? 'The request took too long to arrive.'
          : 'The request is not valid HTTP.';
    const body = JSON.stringify({ error: { code: 'bad_request', message } } satisfies ErrorBody);
    if (socket.writable) {
      const all = {
        ...headers,
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(body)),
        Connection: 'close',
      };
      const lines = Object.entries(all).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${lines.join('')}\r\n${body}`);
    }
    socket.destroy(error);
  };
}
