import forge from './forge';
import { unreadableFileError } from './unreadable-file-error';

/** What the product needs from a distribution `.p12`: the certificate, that the key is there, and its expiry. */
export interface P12Contents {
  certificatePem: string;
  hasPrivateKey: boolean;
  subjectCN: string | undefined;
  notAfter: Date;
}

/** An opened `.p12` as node-forge objects: the identity certificate, its key (if any) and the other certificates. */
export interface OpenedP12 {
  certificate: forge.pki.Certificate;
  privateKey: forge.pki.rsa.PrivateKey | undefined;
  /** Every other certificate in the file (an issuing chain, when the export carried one). */
  chain: forge.pki.Certificate[];
  /** The identity's friendly name as stored with the key or the certificate, if any. */
  friendlyName: string | undefined;
}

export const P12ReadError = unreadableFileError('P12ReadError', 'p12_unreadable');
export type P12ReadError = InstanceType<typeof P12ReadError>;

const BAG = {
  key: '1.2.840.113549.1.12.10.1.1',
  shroudedKey: '1.2.840.113549.1.12.10.1.2',
  cert: '1.2.840.113549.1.12.10.1.3',
};

function bagsOf(p12: forge.pkcs12.Pkcs12Pfx, bagType: string): forge.pkcs12.Bag[] {
  return p12.getBags({ bagType })[bagType] ?? [];
}

function friendlyNameOf(bag: forge.pkcs12.Bag | undefined): string | undefined {
  const attributes = bag?.attributes as Record<string, unknown[] | undefined> | undefined;
  const name = attributes?.friendlyName?.[0];
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/**
 * Opens a base64 PKCS#12 with its password; a wrong password or a damaged file throws P12ReadError (whose
 * message never carries the password).
 */
export function openP12(base64: string, password: string): OpenedP12 {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.decode64(base64));
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, true, password);
  } catch (error) {
    const message = `Cannot open the .p12 (wrong password or not a PKCS#12 file): ${String(error)}`;
    throw new P12ReadError(message, { cause: error });
  }
  const keyBag = [...bagsOf(p12, BAG.shroudedKey), ...bagsOf(p12, BAG.key)].find((bag) => bag.key);
  const key = keyBag?.key;
  const certBags = bagsOf(p12, BAG.cert).filter((bag) => bag.cert);
  // Exports may carry the issuing chain too: the identity's certificate is the one holding the key's public half.
  const certBag = certBags.find((bag) => key && 'n' in bag.cert!.publicKey && bag.cert!.publicKey.n.equals(key.n)) ?? certBags[0];
  if (!certBag?.cert) throw new P12ReadError('The .p12 holds no certificate');
  return {
    certificate: certBag.cert,
    privateKey: key,
    chain: certBags.filter((bag) => bag !== certBag).map((bag) => bag.cert!),
    friendlyName: friendlyNameOf(keyBag) ?? friendlyNameOf(certBag),
  };
}

/** Opens a base64 PKCS#12 with its password; a wrong password or a damaged file throws P12ReadError. */
export function readP12(base64: string, password: string): P12Contents {
  const { certificate, privateKey } = openP12(base64, password);
  const cn: unknown = certificate.subject.getField('CN')?.value;
  return {
    certificatePem: forge.pki.certificateToPem(certificate),
    hasPrivateKey: privateKey !== undefined,
    subjectCN: typeof cn === 'string' ? cn : undefined,
    notAfter: certificate.validity.notAfter,
  };
}
