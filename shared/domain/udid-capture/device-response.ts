/**
 * The device's answer to the Profile Service: a DER CMS SignedData whose content is a plist of the asked
 * attributes plus `CHALLENGE`. PKI.js parses it and checks the signature (SHA-1 or SHA-256 signed attributes,
 * as devices send either); the signer's chain is then walked to a trust anchor with PKI.js's certificate
 * signature checks, WITHOUT validity dates: Apple's "iPhone Device CA" expired in 2014 and devices still sign
 * under it. Every issuer on the way must be a CA.
 */
import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import { Certificate, ContentInfo, SignedData } from 'pkijs';
import { parsePlist, type PlistValue } from '../../apple/plist-reader';
import { isUdidFormat } from '../../records/device';

const SIGNED_DATA_OID = '1.2.840.113549.1.7.2';
const BASIC_CONSTRAINTS_OID = '2.5.29.19';
/** Apple's chain is device → Device CA → iPhone CA → Root: a longer one is not a device's. */
const MAX_CHAIN = 6;
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why a submission is refused; each is also the `data.error` and message key. */
import { ServiceError } from '../../service-error';
export type DeviceResponseProblem = 'device_response_malformed' | 'device_signature_invalid' | 'device_signer_untrusted' | 'device_attributes_invalid';

export class DeviceResponseError extends ServiceError<'device_response', DeviceResponseProblem> {
  override readonly name = 'DeviceResponseError';

  constructor(readonly problem: DeviceResponseProblem, detail: string) {
    super('device_response', problem, `${problem}: ${detail}`);
  }
}

export interface DeviceAttributes {
  udid: string;
  challenge: string;
  product: string;
  version: string;
  serial: string;
  deviceName: string;
}

export interface TrustAnchor {
  der: Uint8Array;
}

const fail = (problem: DeviceResponseProblem, detail: string): never => {
  throw new DeviceResponseError(problem, detail);
};

function parseSignedData(der: Uint8Array): SignedData {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1 || parsed.offset !== der.byteLength) fail('device_response_malformed', 'not one DER value');
  try {
    const info = new ContentInfo({ schema: parsed.result });
    if (info.contentType !== SIGNED_DATA_OID) fail('device_response_malformed', 'not a SignedData');
    return new SignedData({ schema: info.content });
  } catch (error) {
    if (error instanceof DeviceResponseError) throw error;
    return fail('device_response_malformed', 'not a CMS structure');
  }
}

/** The signed content's bytes (a constructed OCTET STRING is the concatenation of its parts). */
function contentOf(signed: SignedData): Uint8Array {
  const eContent = signed.encapContentInfo.eContent;
  if (!eContent) return fail('device_response_malformed', 'no signed content');
  if (!eContent.idBlock.isConstructed) return new Uint8Array(eContent.valueBlock.valueHexView);
  const parts = (eContent.valueBlock as unknown as { value: asn1js.OctetString[] }).value.map((p) => new Uint8Array(p.valueBlock.valueHexView));
  return new Uint8Array(Buffer.concat(parts));
}

const derOf = (cert: Certificate) => new Uint8Array(cert.toSchema().toBER(false));
const fingerprint = (der: Uint8Array) => createHash('sha256').update(der).digest('hex');

function isCa(cert: Certificate): boolean {
  const ext = cert.extensions?.find((e) => e.extnID === BASIC_CONSTRAINTS_OID);
  return Boolean((ext?.parsedValue as { cA?: boolean } | undefined)?.cA);
}

async function signedBy(cert: Certificate, issuer: Certificate): Promise<boolean> {
  if (!cert.issuer.isEqual(issuer.subject)) return false;
  try {
    return await cert.verify(issuer);
  } catch {
    return false;
  }
}

/**
 * Walks from the signer to an anchor through the certificates the device sent and the anchors themselves,
 * checking each signature and that each issuer is a CA, never the dates.
 */
async function chainsToAnchor(signer: Certificate, pool: Certificate[], anchors: Certificate[]): Promise<boolean> {
  const anchorPrints = new Set(anchors.map((a) => fingerprint(derOf(a))));
  let current = signer;
  for (let depth = 0; depth < MAX_CHAIN; depth++) {
    let next: Certificate | undefined;
    for (const candidate of [...anchors, ...pool]) {
      if (candidate === current || !isCa(candidate)) continue;
      if (await signedBy(current, candidate)) {
        next = candidate;
        break;
      }
    }
    if (!next) return false;
    if (anchorPrints.has(fingerprint(derOf(next)))) return true;
    current = next;
  }
  return false;
}

function text(dict: Record<string, PlistValue>, key: string, max: number): string {
  const value = dict[key];
  if (value === undefined) return '';
  if (typeof value !== 'string' || [...value].length > max || CONTROL.test(value)) return fail('device_attributes_invalid', `${key} is not a short text`);
  return value;
}

function readAttributes(content: Uint8Array): DeviceAttributes {
  let dict: PlistValue;
  try {
    dict = parsePlist(Buffer.from(content).toString('utf8'));
  } catch {
    return fail('device_attributes_invalid', 'the signed content is not a plist');
  }
  if (typeof dict !== 'object' || dict === null || Array.isArray(dict) || dict instanceof Date || dict instanceof Uint8Array) return fail('device_attributes_invalid', 'not a dictionary');
  const attrs = dict as Record<string, PlistValue>;
  const udid = text(attrs, 'UDID', 64);
  if (!isUdidFormat(udid)) fail('device_attributes_invalid', 'UDID');
  const challenge = text(attrs, 'CHALLENGE', 2048);
  if (!challenge) fail('device_attributes_invalid', 'CHALLENGE');
  return {
    udid,
    challenge,
    product: text(attrs, 'PRODUCT', 64),
    version: text(attrs, 'VERSION', 32),
    serial: text(attrs, 'SERIAL', 64),
    deviceName: text(attrs, 'DEVICE_NAME', 128),
  };
}

/** The attributes of a genuine device's answer; a DeviceResponseError names what is wrong otherwise. */
export async function verifyDeviceResponse(der: Uint8Array, anchorsDer: readonly Uint8Array[]): Promise<DeviceAttributes> {
  const signed = parseSignedData(der);
  const content = contentOf(signed);
  if (signed.signerInfos.length !== 1) fail('device_response_malformed', 'expected one signer');
  let signer: Certificate | undefined;
  try {
    const result = await signed.verify({ signer: 0, checkChain: false, extendedMode: true });
    if (!result.signatureVerified) fail('device_signature_invalid', 'signature');
    signer = result.signerCertificate ?? undefined;
  } catch (error) {
    if (error instanceof DeviceResponseError) throw error;
    fail('device_signature_invalid', 'signature');
  }
  if (!signer) return fail('device_signature_invalid', 'no signer certificate');
  const pool = (signed.certificates ?? []).filter((c): c is Certificate => c instanceof Certificate);
  const anchors = anchorsDer.map((d) => Certificate.fromBER(d));
  if (!anchors.length || !(await chainsToAnchor(signer, pool, anchors))) fail('device_signer_untrusted', 'chain');
  return readAttributes(content);
}
