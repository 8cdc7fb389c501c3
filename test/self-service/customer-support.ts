/**
 * What the customer self-service tests share: a proven device (the device simulator's capture through a
 * customer page, its one-time ticket exchanged for the session cookie) and plain HTTP calls that keep bytes
 * (the zip) and may come from another loopback address (each test its own "IP", so per-IP limits stay apart).
 */
import { request as httpRequest } from 'node:http';
import { certificatePem, createDeviceCa, type DeviceCa } from '../../infra/device-simulator/device-pki';
import { runDevice } from '../../infra/device-simulator/run';
import { addTrustAnchor } from '../../shared/domain/udid-capture/trust-anchors';
import type { SimulatedTeam } from '../../infra/asc-simulator/server';
import { simulatedAccount, startTestbed, type Testbed } from '../support/add-device-testbed';
import { makeOwner, type Owner } from '../support/fixtures';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

let nextIp = 10;
/** A loopback address of its own (127.0.0.x): what a separate caller looks like to the per-IP limits. */
export const freshIp = () => `127.0.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 2}`;

export function call(url: string, options: { method?: string; cookie?: string; form?: Record<string, string>; from?: string; lang?: string; host?: string } = {}): Promise<Answer> {
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  const headers: Record<string, string> = { 'Accept-Language': options.lang ?? 'en' };
  if (options.cookie) headers.Cookie = options.cookie;
  if (options.host) headers.Host = options.host;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? (options.form ? 'POST' : 'GET'), headers, localAddress: options.from ?? '127.0.0.1' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const all = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: all, text: all.toString('utf8') });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** The device CA the tests' devices chain to, installed as a trust anchor. */
export async function trustedDeviceCa(): Promise<DeviceCa> {
  const ca = createDeviceCa();
  await addTrustAnchor(Buffer.from(certificatePem(ca.root)), 1_700_000_000);
  return ca;
}

/**
 * Where every customer-page test starts: the API and the App Store Connect simulator, one instant account in
 * the default tenant's public pool, the device CA trusted, and a reseller with money and a source.
 */
export async function customerWorld(): Promise<{ bed: Testbed; team: SimulatedTeam; ca: DeviceCa; owner: Owner; url: string }> {
  const bed = await startTestbed();
  const { team } = await simulatedAccount(bed.sim, { mode: 'instant' });
  const ca = await trustedDeviceCa();
  const owner = await makeOwner({ balance: 1_000_000 });
  return { bed, team, ca, owner, url: bed.api.url };
}

/** Captures `udid` through `profileUrl`; the redirect's location (with `st`, the one-time ticket). */
export async function capture(ca: DeviceCa, profileUrl: string, udid: string, product = 'iPhone15,2'): Promise<string> {
  const run = await runDevice(ca, profileUrl, { udid, product, deviceName: 'Anna’s iPhone' });
  if (run.result.status !== 301 || !run.result.location) throw new Error(`capture answered ${run.result.status} ${run.result.error}`);
  return run.result.location;
}

/** Opens the capture's location as Safari would: 303 with the session cookie; the cookie to send back. */
export async function enter(location: string, from?: string): Promise<{ cookie: string; setCookie: string; page: string }> {
  const res = await call(location, { from });
  if (res.status !== 303) throw new Error(`the ticket's first open answered ${res.status}: ${res.text.slice(0, 200)}`);
  const setCookie = String(res.headers['set-cookie']);
  return { cookie: setCookie.split(';')[0]!, setCookie, page: String(res.headers.location) };
}
