/**
 * The console's built files (functions/console/web/dist, made by `npm run build:console`), read once per
 * process: locally from the function's folder, deployed from the copy the stack puts next to the bundle, at
 * the same place relative to the code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ConsoleFile {
  body: string;
  contentType: string;
  cacheControl: string;
}

/** Only text: API Gateway then needs no binary media type for the console (the build keeps it so). */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** The page must be revalidated (it names the current files); the files under assets/ carry their content's hash. */
export function cacheControlFor(path: string): string {
  if (path === 'index.html') return 'no-cache';
  if (path.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}

function walk(root: string, dir: string, into: Map<string, ConsoleFile>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(root, full, into);
    else {
      const contentType = CONTENT_TYPES[extname(entry.name)];
      if (!contentType) continue;
      const path = relative(root, full).split('\\').join('/');
      into.set(path, { body: readFileSync(full, 'utf8'), contentType, cacheControl: cacheControlFor(path) });
    }
  }
}

let files: Map<string, ConsoleFile> | undefined;

export function consoleFiles(root = fileURLToPath(new URL('./web/dist/', import.meta.url))): Map<string, ConsoleFile> {
  if (!files) {
    files = new Map();
    walk(root, root, files);
  }
  return files;
}
