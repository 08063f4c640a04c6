// The image's HEALTHCHECK (the slim image has no curl): `node deploy/healthcheck.mjs [api|worker|mcp]`
// asks GET /healthz of that process (api when not given) and exits 0 when it answers 200, 1 otherwise.
// The port and host come from the service's own configuration loader, so their defaults and
// validation are the ones the process itself used. Plain JavaScript: it runs beside the compiled
// output, with nothing else installed.
import { get } from 'node:http';
import process from 'node:process';
import { loadConfig } from '../packages/agentic-rag/dist/config/index.js';

/** The variable holding each process's HTTP port: the API's, the worker's metrics listener, MCP over HTTP. */
const PORT_VARIABLES = {
  api: 'PORT',
  worker: 'AGENTIC_RAG_WORKER_METRICS_PORT',
  mcp: 'AGENTIC_RAG_MCP_PORT',
};
const TIMEOUT_MS = 4000;

function fail(message, code = 1) {
  process.stderr.write(`healthcheck: ${message}\n`);
  process.exit(code);
}

const role = process.argv[2] ?? 'api';
const variable = PORT_VARIABLES[role];
if (!variable) fail(`unknown process "${role}": expected api, worker or mcp`, 2);

let config;
try {
  config = loadConfig(process.env);
} catch (error) {
  fail(error.message);
}
const port = config[variable];
if (port === 0) fail(`${variable}=0 picks a free port at start: set a fixed one to health-check it`);
// A wildcard listens on loopback too; a named interface is asked where it listens.
const host = ['0.0.0.0', '::', '[::]'].includes(config.HOST)
  ? '127.0.0.1'
  : config.HOST.replace(/^\[|\]$/g, '');

const request = get({ host, port, path: '/healthz', timeout: TIMEOUT_MS }, (response) => {
  response.resume();
  if (response.statusCode === 200) process.exit(0);
  fail(`GET /healthz on ${host}:${port} answered ${response.statusCode}`);
});
request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
request.on('error', (error) => fail(`GET /healthz on ${host}:${port} failed: ${error.message}`));
