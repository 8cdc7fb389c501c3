import forge from 'node-forge';

/** What the product needs from a distribution `.p12`: the certificate, that the key is there, and its expiry. */
export interface P12Contents {
  certificatePem: string;
  hasPrivateKey: boolean;
  subjectCN: string | undefined;
  notAfter: Date;
}

export class P12ReadError extends Error {
  override readonly name = 'P12ReadError';
}

const BAG = {
  key: '1.2.840.113549.1.12.10.1.1',
  shroudedKey: '1.2.840.113549.1.12.10.1.2',
  cert: '1.2.840.113549.1.12.10.1.3',
};

function bagsOf(p12: forge.pkcs12.Pkcs12Pfx, bagType: string): forge.pkcs12.Bag[] {
  return p12.getBags({ bagType })[bagType] ?? [];
}

/** Opens a base64 PKCS#12 with its password; a wrong password or a damaged file throws P12ReadError. */
export function readP12(base64: string, password: string): P12Contents {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.decode64(base64));
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, true, password);
  } catch (error) {
    const message = `Cannot open the .p12 (wrong password or not a PKCS#12 file): ${String(error)}`;
    throw new P12ReadError(message, { cause: error });
  }
  const key = [...bagsOf(p12, BAG.shroudedKey), ...bagsOf(p12, BAG.key)].find((bag) => bag.key)?.key;
  const certificates = bagsOf(p12, BAG.cert).flatMap((bag) => (bag.cert ? [bag.cert] : []));
  // Exports may carry the issuing chain too: the identity's certificate is the one holding the key's public half.
  const certificate =
    certificates.find((cert) => key && 'n' in cert.publicKey && cert.publicKey.n.equals(key.n)) ?? certificates[0];
  if (!certificate) throw new P12ReadError('The .p12 holds no certificate');

  const cn: unknown = certificate.subject.getField('CN')?.value;
  return {
    certificatePem: forge.pki.certificateToPem(certificate),
    hasPrivateKey: key !== undefined,
    subjectCN: typeof cn === 'string' ? cn : undefined,
    notAfter: certificate.validity.notAfter,
  };
}
