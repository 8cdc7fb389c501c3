/**
 * What an iPhone does with a Profile Service profile: read its URL and Challenge, build the attribute plist,
 * sign it as CMS with the device identity (plus its CA certificates), and POST it. Forgeries are built the
 * same way, with one thing wrong.
 */
import { request as httpRequest } from 'node:http';
import * as asn1js from 'asn1js';
import forge from '../../shared/apple/forge';
import { build, parse } from 'plist';
import { ContentInfo, SignedData } from 'pkijs';
import type { DeviceCa, Identity } from './device-pki';

export interface DeviceFacts {
  udid: string;
  product?: string;
  version?: string;
  serial?: string;
  deviceName?: string;
}

export interface ProfileService {
  url: string;
  challenge: string;
  attributes: string[];
  signed: boolean;
}

/** The Profile Service payload of a downloaded profile, signed (CMS) or plain XML. */
export function readProfile(body: Buffer): ProfileService {
  let xml: string;
  let signed = false;
  if (body.subarray(0, 64).toString('utf8').includes('<?xml')) xml = body.toString('utf8');
  else {
    const info = new ContentInfo({ schema: asn1js.fromBER(new Uint8Array(body)).result });
    const content = new SignedData({ schema: info.content }).encapContentInfo.eContent!;
    // A signer may encode the content as a constructed OCTET STRING: getValue() joins its parts.
    xml = Buffer.from((content as asn1js.OctetString).getValue()).toString('utf8');
    signed = true;
  }
  const profile = parse(xml) as { PayloadType: string; PayloadContent: { URL: string; Challenge: string; DeviceAttributes: string[] } };
  if (profile.PayloadType !== 'Profile Service') throw new Error('not a Profile Service profile');
  return { url: profile.PayloadContent.URL, challenge: profile.PayloadContent.Challenge, attributes: profile.PayloadContent.DeviceAttributes, signed };
}

export function attributesPlist(facts: DeviceFacts, challenge: string): string {
  return build({
    UDID: facts.udid,
    PRODUCT: facts.product ?? 'iPhone15,2',
    VERSION: facts.version ?? '17.4',
    SERIAL: facts.serial ?? 'F2LZK0SIM0',
    DEVICE_NAME: facts.deviceName ?? 'iPhone',
    CHALLENGE: challenge,
  });
}

/** The device's answer: a DER CMS SignedData of `plist` by `signer`, carrying `chain`. */
export function signAnswer(plistXml: string, signer: Identity, chain: Identity[], digest: 'sha1' | 'sha256' = 'sha1'): Buffer {
  const p7 = forge.pkcs7.createSignedData();
  p7.content = forge.util.createBuffer(plistXml, 'utf8');
  p7.addCertificate(signer.certificate);
  for (const c of chain) p7.addCertificate(c.certificate);
  p7.addSigner({
    key: signer.key,
    certificate: signer.certificate,
    digestAlgorithm: digest === 'sha1' ? forge.pki.oids.sha1! : forge.pki.oids.sha256!,
    authenticatedAttributes: [
      { type: forge.pki.oids.contentType!, value: forge.pki.oids.data! },
      { type: forge.pki.oids.messageDigest! },
      { type: forge.pki.oids.signingTime!, value: new Date() as unknown as string },
    ],
  });
  p7.sign();
  return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
}

/** The answer with one byte of the signed UDID changed after signing (the signature no longer matches). */
export function tamper(answer: Buffer, udid: string): Buffer {
  const copy = Buffer.from(answer);
  const at = copy.indexOf(Buffer.from(udid, 'utf8'));
  if (at < 0) throw new Error('UDID not found in the answer');
  copy[at + udid.length - 1] = copy[at + udid.length - 1] === 0x30 ? 0x31 : 0x30;
  return copy;
}

/** The chain a genuine device sends: its Device CA and the iPhone CA (not the root). */
export function genuineChain(ca: DeviceCa): Identity[] {
  return [ca.deviceCa, ca.iphoneCa];
}

export interface PostResult {
  status: number;
  location: string | null;
  error: string | null;
  body: string;
}

/**
 * POSTs an answer as iOS does, without following the redirect (node:http, so a test can choose the Host), on a
 * connection of its own (`agent: false`): a kept-alive socket the server has since closed would be reset.
 */
export function postAnswer(url: string, answer: Buffer, headers: Record<string, string> = {}): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent: false, headers: { 'Content-Type': 'application/pkcs7-signature', 'Content-Length': String(answer.length), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          location: typeof res.headers.location === 'string' ? res.headers.location : null,
          error: typeof res.headers['x-error'] === 'string' ? res.headers['x-error'] : null,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(answer);
  });
}
