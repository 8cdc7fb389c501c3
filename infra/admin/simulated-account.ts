import type { NewAccountInput } from '../../shared/domain/accounts/account-service';

/**
 * What an account record needs from the simulator's `POST /_sim/teams` answer, in the account's own terms. Not
 * imported from the simulator: the CLI knows it only through its HTTP control protocol. The local runtime passes the
 * simulator's own team to `simulatedAccountInput`, so a field renamed on either side stops the type-check.
 */
export type SimulatedTeamAnswer = Pick<NewAccountInput, 'teamId' | 'baseUrl' | 'issuerId' | 'keyId' | 'certificateId' | 'bundleIdId'> &
  NewAccountInput['secrets'] & { membershipExpiresAt: string };

export type AccountPlacement = Omit<NewAccountInput, 'simulated' | 'teamId' | 'baseUrl' | 'issuerId' | 'keyId' | 'certificateId' | 'bundleIdId' | 'secrets' | 'expiresAt'> & {
  expiresAt?: number | undefined;
};

/** An account backed by a simulated team: the team's API key, certificate and p12 become its secrets. */
export function simulatedAccountInput(team: SimulatedTeamAnswer, placement: AccountPlacement): NewAccountInput {
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
