/** What the tests of a reseller's own Apple accounts share: the testbed pointed at the simulator, and the key as the API takes it. */
import type { SimulatedTeam } from '../../infra/asc-simulator/server';
import { startTestbed, type Testbed } from './add-device-testbed';

export type Json = Record<string, unknown>;

/** Each connection makes an RSA key and a .p12: seconds on a loaded machine. */
export const CONNECTION_TIMEOUT_MS = 90_000;

/** The add testbed, with connections sent to its App Store Connect simulator. */
export async function startConnectionTestbed(): Promise<Testbed> {
  const bed = await startTestbed();
  process.env.APPLE_API_BASE_URL = bed.sim.url;
  return bed;
}

export const bearer = (token: string, lang = 'en') => ({ Authorization: `Bearer ${token}`, 'X-Lang': lang });

/** A simulated team's API key, as `POST /api/user/apple-accounts` takes it. */
export const keyOf = (team: Pick<SimulatedTeam, 'issuerId' | 'keyId' | 'privateKeyPem'>) => ({ issuer_id: team.issuerId, key_id: team.keyId, private_key: team.privateKeyPem });
