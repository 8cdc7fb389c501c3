import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { routes, type RouteDefinition } from '../../shared/routes';
import { compileRoutePath, toApiGatewayEvent } from './api-gateway-event';
import { gatewayAnswer, gatewayEnvelope } from '../../shared/http/gateway-answers';
import { serveApiDocs } from './api-docs';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const compiled = routes.map((route) => ({ route: route as RouteDefinition, match: compileRoutePath(route as RouteDefinition) }));
const handlers = new Map<string, Promise<Handler>>();

/** Loads `functions/<name>/handler.ts` — the same module the Lambda bundle is built from. */
function loadHandler(fn: string): Promise<Handler> {
  let loaded = handlers.get(fn);
  if (!loaded) {
    loaded = import(`../../functions/${fn}/handler.ts`).then((m: { handler: Handler }) => m.handler);
    handlers.set(fn, loaded);
  }
  return loaded;
}

function lambdaContext(fn: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: fn,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${fn}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    // Deployed, every function writes to the stack's one log group, in streams named after the function.
    logGroupName: 'AppSource-FunctionLogs',
    logStreamName: `local/${fn}[$LATEST]`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  res.writeHead(status, headers);
  res.end(body);
}

/**
 * What the deployed API answers for a path or method it has no route for: API Gateway's
 * MISSING_AUTHENTICATION_TOKEN, which the stack's gateway responses shape as a 404 envelope.
 */
function noRoute(res: ServerResponse): void {
  const answer = gatewayAnswer('MISSING_AUTHENTICATION_TOKEN');
  send(
    res,
    answer.status,
    { 'Content-Type': 'application/json; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store', 'x-amzn-ErrorType': 'MissingAuthenticationTokenException' },
    JSON.stringify(gatewayEnvelope(answer, Date.now())),
  );
}

const NO_BODY = Buffer.alloc(0);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  // HTTP/1.1: a request with neither header has no body; most API calls are such GETs, spared a stream iterator.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return NO_BODY;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The first route whose path and method match, with its path parameters. */
function findRoute(pathname: string, method: string): { route: RouteDefinition; params: Record<string, string> } | undefined {
  for (const { route, match } of compiled) {
    if (!(route.methods as readonly string[]).includes(method)) continue;
    const params = match(pathname);
    if (params) return { route, params };
  }
  return undefined;
}

/** The address and port this server received `req` on, as a URL writes a host (IPv6 in brackets). */
function serverHost(req: IncomingMessage): string | undefined {
  const address = req.socket.localAddress?.replace(/^::ffff:/, '');
  const port = req.socket.localPort;
  if (!address || !port) return undefined;
  return `${address.includes(':') ? `[${address}]` : address}:${port}`;
}

export async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = (req.method ?? 'GET').toUpperCase();
  if (await serveApiDocs(req, res, url.pathname)) return;
  const hit = findRoute(url.pathname, method);
  if (!hit) return noRoute(res);
  const event = toApiGatewayEvent(
    { method, url, rawHeaders: req.rawHeaders, body: await readBody(req), sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1', serverHost: serverHost(req) },
    hit.route,
    hit.params,
  );
  const handler = await loadHandler(hit.route.function);
  const result = await handler(event, lambdaContext(hit.route.function));
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
  send(res, result.statusCode, headers, result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

export interface RunningApi {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Serves every route of the route table on `port` (0 = any free port), like API Gateway would. */
export function startApiServer(port: number, host = '127.0.0.1'): Promise<RunningApi> {
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      console.error('Local API gateway error', err);
      if (!res.headersSent) send(res, 502, { 'Content-Type': 'application/json' }, JSON.stringify({ message: 'Internal server error' }));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      resolve({
        server,
        url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${actual}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
