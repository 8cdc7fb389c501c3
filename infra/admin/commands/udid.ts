import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { signingKeys } from '../../../shared/domain/udid-capture/capture-keys';
import { addTrustAnchor, removeTrustAnchor, trustAnchorViews } from '../../../shared/domain/udid-capture/trust-anchors';
import { DEFAULT_TENANT_ID } from '../../../shared/records/tenant';
import { requireTenant } from '../../../shared/domain/tenants/tenant-service';
import { CliError, flagText, parseFlags, type Command } from '../cli-types';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** UDID capture: the trust anchors device answers must chain to, and the tenants' ticket keys. */
export const udidCommands: Record<string, Command> = {
  /** Installs a CA certificate (PEM or DER) as a trust anchor for device answers. */
  'udid anchor-add': async (flags) => {
    const f = parseFlags(flags, { file: flagText(1000) });
    let file: Buffer;
    try {
      file = readFileSync(f.file);
    } catch (error) {
      throw new CliError(`cannot read the certificate at ${f.file}: ${(error as Error).message}`);
    }
    try {
      return { ...(await addTrustAnchor(file, nowSeconds())) };
    } catch (error) {
      throw new CliError(`--file: ${(error as Error).message}`);
    }
  },

  'udid anchors': async (flags) => {
    parseFlags(flags, {});
    return { anchors: await trustAnchorViews() };
  },

  'udid anchor-remove': async (flags) => {
    const f = parseFlags(flags, { sha256: z.string().check(z.regex(/^([0-9A-Fa-f]{2}:?){31}[0-9A-Fa-f]{2}$/, 'must be a SHA-256 fingerprint (64 hex digits)')) });
    if (!(await removeTrustAnchor(f.sha256))) throw new CliError('no trust anchor has that fingerprint');
    return { removed: f.sha256.replace(/:/g, '').toLowerCase() };
  },

  /** The public key (JWK) that verifies the tenant's capture tickets offline; made on first use. */
  'udid ticket-key': async (flags) => {
    const f = parseFlags(flags, { tenant: z.optional(flagText()) });
    const tenant = await requireTenant(f.tenant ?? DEFAULT_TENANT_ID);
    const keys = await signingKeys(tenant.tenantId, nowSeconds());
    return { tenant_id: tenant.tenantId, alg: 'ES256', audience: 'udid-capture', jwk: keys.ticketPublicJwk };
  },
};
