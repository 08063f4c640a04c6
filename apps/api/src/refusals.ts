import type { ServerResponse } from 'node:http';
import { ERROR_CODE_INFO, ErrorCode, type RagError } from '@agentic-rag/core';
import { sendError, sendJson } from './http-errors.js';

/** A refused GraphQL request: the GraphQL error shape with the code's HTTP status (401, 429). */
export function refuseGraphql(response: ServerResponse, error: RagError): void {
  challenge(response, error);
  sendJson(response, ERROR_CODE_INFO[error.code].httpStatus, {
    errors: [{ message: error.message, extensions: { code: ERROR_CODE_INFO[error.code].graphql } }],
  });
}

export function refuseRest(response: ServerResponse, error: RagError): void {
  challenge(response, error);
  sendError(response, error.code, error.message);
}

/** The headers a refusal carries: how to authenticate, or when to come back. */
function challenge(response: ServerResponse, error: RagError): void {
  if (error.code === ErrorCode.UNAUTHENTICATED) response.setHeader('www-authenticate', 'Bearer');
  const retryAfter = error.details?.retryAfterSeconds;
  if (typeof retryAfter === 'number') response.setHeader('retry-after', String(retryAfter));
}
