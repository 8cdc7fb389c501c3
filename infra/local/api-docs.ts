/**
 * The API docs the local runtime serves: `/openapi.json` (the generated document, with this server as its
 * server URL) and `/docs`, Swagger UI from the `swagger-ui-dist` package, served from disk (no CDN).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildOpenApiDocument } from '../tooling/openapi-document';

/** Asset name → content type. A Map: `/docs/toString` must not find an inherited member. */
const ASSETS = new Map<string, string>([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'text/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>App source &amp; device service — API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" href="/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, docExpansion: 'list', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
  </script>
</body>
</html>
`;

let assetDir: string | undefined;
function swaggerDir(): string {
  assetDir ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return assetDir;
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' });
  res.end(body);
}

/** Serves the docs when `pathname` is theirs; false lets the API handle the request. */
export async function serveApiDocs(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
  if (req.method !== 'GET') return false;
  if (pathname === '/openapi.json') {
    const document = await buildOpenApiDocument({ serverUrl: `http://${req.headers.host ?? '127.0.0.1'}` });
    send(res, 200, 'application/json; charset=utf-8', JSON.stringify(document, null, 2));
    return true;
  }
  if (pathname === '/docs' || pathname === '/docs/') {
    send(res, 200, 'text/html; charset=utf-8', PAGE);
    return true;
  }
  const asset = pathname.startsWith('/docs/') ? pathname.slice('/docs/'.length) : undefined;
  const type = asset === undefined ? undefined : ASSETS.get(asset);
  if (asset && type) {
    send(res, 200, type, await readFile(join(swaggerDir(), asset)));
    return true;
  }
  return false;
}
