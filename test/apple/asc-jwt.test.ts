// App Store Connect tokens: Apple's header and claims, and reuse until a minute before expiry.
import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { AscTokenCache, type AscCredentials } from '../../shared/apple/asc-jwt';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const credentials: AscCredentials = {
  baseUrl: 'https://api.appstoreconnect.apple.com',
  issuerId: '57246542-96fe-1a63-e053-0824d011072a',
  keyId: '2X9R4HXF34',
  privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};
const START = Date.parse('2025-03-01T12:00:00Z');

function clock() {
  let now = START;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

test('a token has Apple header and claims, a raw 64-byte ES256 signature, and lives 20 minutes', async () => {
  const tokens = new AscTokenCache({ now: () => START });
  const token = await tokens.token(credentials);

  expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: credentials.keyId, typ: 'JWT' });
  const claims = decodeJwt(token);
  expect(claims).toEqual({ iss: credentials.issuerId, aud: 'appstoreconnect-v1', iat: START / 1000, exp: START / 1000 + 1200 });
  expect(Buffer.from(token.split('.')[2] ?? '', 'base64url')).toHaveLength(64);
  await expect(
    jwtVerify(token, publicKey, { audience: 'appstoreconnect-v1', currentDate: new Date(START) }),
  ).resolves.toBeDefined();
});

test('a token is reused until a minute before it expires, then replaced', async () => {
  const time = clock();
  const tokens = new AscTokenCache({ now: time.now });
  const first = await tokens.token(credentials);

  time.advance(18 * 60 * 1000 + 59 * 1000);
  expect(await tokens.token(credentials)).toBe(first);

  time.advance(2 * 1000);
  const second = await tokens.token(credentials);
  expect(second).not.toBe(first);
  expect(decodeJwt(second).iat).toBe(START / 1000 + 19 * 60 + 1);
  expect(await tokens.token(credentials)).toBe(second);
});

test('each API key has its own token, and an invalidated one is signed afresh', async () => {
  const tokens = new AscTokenCache({ now: () => START });
  const first = await tokens.token(credentials);
  const other = await tokens.token({ ...credentials, keyId: 'OTHERKEY01' });
  expect(decodeProtectedHeader(other).kid).toBe('OTHERKEY01');

  tokens.invalidate(credentials);
  const fresh = await tokens.token(credentials);
  expect(fresh).not.toBe(first);
  expect(await tokens.token({ ...credentials, keyId: 'OTHERKEY01' })).toBe(other);
});

test('a key that is not a PKCS#8 EC key is refused', async () => {
  const tokens = new AscTokenCache();
  await expect(tokens.token({ ...credentials, privateKeyPem: 'not a key' })).rejects.toThrow();
});
