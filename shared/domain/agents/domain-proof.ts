/**
 * Proving that an agent controls the domain it claims for its storefront: a TXT record at
 * `_appsource-verify.<domain>` holding the token the claim answered, looked up in DNS when the agent (or its
 * parent) asks to verify. Tenants' hosts are the operator's word (`tenant create --domain`); an agent's is
 * proven by DNS, or approved by the operator (`agent domain --agent A`), so no agent can take a name it does
 * not hold.
 */
import { resolveTxt } from 'node:dns/promises';
import { domainProofName } from '../../records/storefront';

type TxtResolver = (name: string) => Promise<string[][]>;

let resolver: TxtResolver = resolveTxt;

/** Tests answer DNS themselves (no test reaches the network). */
export function useTxtResolver(next: TxtResolver | undefined): void {
  resolver = next ?? resolveTxt;
}

/** Whether the domain's proof record holds `token` (a record split into strings counts joined, as DNS means it). */
export async function domainProven(domain: string, token: string): Promise<boolean> {
  try {
    const records = await resolver(domainProofName(domain));
    return records.some((parts) => parts.join('') === token);
  } catch {
    // No such name, no TXT record, DNS unreachable: not proven (the caller says what to publish).
    return false;
  }
}
