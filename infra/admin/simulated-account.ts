import type { NewAccountInput } from '../../shared/domain/accounts/account-service';
import type { SimulatedTeam } from '../asc-simulator/server';

export type AccountPlacement = Omit<NewAccountInput, 'simulated' | 'teamId' | 'baseUrl' | 'issuerId' | 'keyId' | 'certificateId' | 'bundleIdId' | 'secrets' | 'expiresAt'> & {
  expiresAt?: number | undefined;
};

/** An account backed by a simulated team: the team's API key, certificate and p12 become its secrets. */
export function simulatedAccountInput(team: Omit<SimulatedTeam, 'name' | 'mode'>, placement: AccountPlacement): NewAccountInput {
  return {
    ...placement,
    expiresAt: placement.expiresAt ?? Math.floor(Date.parse(team.membershipExpiresAt) / 1000),
    simulated: true,
    teamId: team.teamId,
    baseUrl: team.baseUrl,
    issuerId: team.issuerId,
    keyId: team.keyId,
    certificateId: team.certificateId,
    bundleIdId: team.bundleIdId,
    secrets: { privateKeyPem: team.privateKeyPem, p12Base64: team.p12Base64, p12Password: team.p12Password },
  };
}
