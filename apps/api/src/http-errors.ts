import type { ServerResponse } from 'node:http';
import { ERROR_CODE_INFO, type ErrorCode } from '@agentic-rag/core';

/** The REST error body every route answers with: `{detail, status_code, error_code, timestamp}`. */
export function sendError(response: ServerResponse, code: ErrorCode, detail: string, status?: number): void {
  const statusCode = status ?? ERROR_CODE_INFO[code].httpStatus;
  sendJson(response, statusCode, {
    detail,
    status_code: statusCode,
    error_code: code,
    timestamp: new Date().toISOString(),
  });
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
  });
  response.end(payload);
}
