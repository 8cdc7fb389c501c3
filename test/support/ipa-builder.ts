/**
 * Real IPAs built in the test (infra/local/ipa-builder.ts) and a loopback download host that serves them with
 * validators, ranges, slowly or cut short.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { RecordedRequest } from './local-server';

export { buildIpa, defaultInfo, fatMachO, machO, type IpaSpec } from '../../infra/local/ipa-builder';

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface HostedFile {
  body: Buffer;
  etag?: string;
  lastModified?: string;
  status?: number;
  /** Send the body in pieces of this size with this pause between them (a slow origin). */
  drip?: { bytes: number; everyMs: number };
  /** Announce the whole length but send only this many bytes, then close (a cut connection). */
  cutAfter?: number;
  /** Answer without `Content-Length` (chunked). */
  noLength?: boolean;
}

/** A handler for startLocalServer that serves `files` by path: HEAD, GET and `Range: bytes=a-b`. */
export function fileHost(files: Map<string, HostedFile>) {
  return (req: RecordedRequest, res: ServerResponse) => {
    const file = files.get(req.path.split('?')[0]!);
    if (!file) {
      res.writeHead(404).end('not found');
      return;
    }
    const status = file.status ?? 200;
    const headers: Record<string, string> = { 'Content-Type': 'application/octet-stream' };
    if (file.etag) headers.ETag = file.etag;
    if (file.lastModified) headers['Last-Modified'] = file.lastModified;
    if (status !== 200) {
      res.writeHead(status, headers).end('error');
      return;
    }
    const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
    if (range) {
      const [from, to] = [Number(range[1]), Math.min(Number(range[2]), file.body.length - 1)];
      res.writeHead(206, { ...headers, 'Content-Range': `bytes ${from}-${to}/${file.body.length}`, 'Content-Length': String(to - from + 1) });
      res.end(req.method === 'HEAD' ? undefined : file.body.subarray(from, to + 1));
      return;
    }
    if (!file.noLength) headers['Content-Length'] = String(file.body.length);
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    if (file.cutAfter !== undefined) {
      res.write(file.body.subarray(0, file.cutAfter), () => res.destroy());
      return;
    }
    if (file.drip) {
      const { bytes, everyMs } = file.drip;
      let at = 0;
      const timer = setInterval(() => {
        if (res.destroyed || at >= file.body.length) {
          clearInterval(timer);
          if (!res.destroyed) res.end();
          return;
        }
        res.write(file.body.subarray(at, at + bytes));
        at += bytes;
      }, everyMs);
      res.on('close', () => clearInterval(timer));
      return;
    }
    res.end(file.body);
  };
}
