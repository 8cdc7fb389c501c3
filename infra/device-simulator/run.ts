/**
 * The device side end to end, for the command and the tests: download the profile, answer it as an iPhone
 * would (or as a forger would), POST the answer, report what came back.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createDeviceCa, fromStored, issueDeviceIdentity, selfSignedIdentity, toStored, type DeviceCa } from './device-pki';
import { attributesPlist, genuineChain, postAnswer, readProfile, signAnswer, tamper, type DeviceFacts, type PostResult } from './device';

export type Forgery = 'none' | 'tampered' | 'self-signed' | 'foreign-ca';

export interface DeviceRun {
  profile: { url: string; signed: boolean; attributes: string[] };
  answer: Buffer;
  result: PostResult;
}

/** One hierarchy per process for `foreign-ca`: another CA the service does not trust (made once; RSA keys are slow). */
let foreign: DeviceCa | undefined;
export function foreignDeviceCa(): DeviceCa {
  foreign ??= createDeviceCa('Unknown Vendor');
  return foreign;
}

export function buildAnswer(ca: DeviceCa, facts: DeviceFacts, challenge: string, forgery: Forgery = 'none', digest: 'sha1' | 'sha256' = 'sha1'): Buffer {
  const xml = attributesPlist(facts, challenge);
  switch (forgery) {
    case 'none':
      return signAnswer(xml, issueDeviceIdentity(ca, facts.udid), genuineChain(ca), digest);
    case 'tampered':
      return tamper(signAnswer(xml, issueDeviceIdentity(ca, facts.udid), genuineChain(ca), digest), facts.udid);
    case 'self-signed':
      return signAnswer(xml, selfSignedIdentity(facts.udid), [], digest);
    case 'foreign-ca': {
      const other = foreignDeviceCa();
      return signAnswer(xml, issueDeviceIdentity(other, facts.udid), genuineChain(other), digest);
    }
  }
}

async function getProfile(url: string, headers: Record<string, string>): Promise<Buffer> {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`profile download answered ${res.status}: ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

/** Fetches the profile at `profileUrl`, answers it and posts the answer to the profile's callback URL. */
export async function runDevice(ca: DeviceCa, profileUrl: string, facts: DeviceFacts, options: { forgery?: Forgery; digest?: 'sha1' | 'sha256' } = {}): Promise<DeviceRun> {
  const profile = readProfile(await getProfile(profileUrl, {}));
  const answer = buildAnswer(ca, facts, profile.challenge, options.forgery, options.digest);
  return { profile: { url: profile.url, signed: profile.signed, attributes: profile.attributes }, answer, result: await postAnswer(profile.url, answer) };
}

/** The command's CA, kept in `.local/device-sim/ca.json` so an anchor installed once stays valid. */
export function persistentDeviceCa(file = resolve('.local/device-sim/ca.json')): { ca: DeviceCa; rootPemFile: string } {
  let ca: DeviceCa;
  try {
    ca = fromStored(JSON.parse(readFileSync(file, 'utf8')) as Record<string, { cert: string; key: string }>);
  } catch {
    ca = createDeviceCa();
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(toStored(ca)), { mode: 0o600 });
  }
  const rootPemFile = resolve(dirname(file), 'root-ca.pem');
  writeFileSync(rootPemFile, toStored(ca).root!.cert);
  return { ca, rootPemFile };
}
