import { createApp, createSource } from '../../shared/domain/sources/source-admin';
import { createTenant } from '../../shared/domain/tenants/tenant-service';
import { createUser } from '../../shared/domain/users/user-service';
import type { App } from '../../shared/domain/sources/app';
import type { Source } from '../../shared/domain/sources/source';
import type { User } from '../../shared/domain/users/user';

export interface Owner {
  user: User;
  token: string;
  source: Source;
  bearer: { Authorization: string };
}

/** A user with a token and one source, on `tenantId` (default tenant unless given). */
export async function makeOwner(options: { tenantId?: string; balance?: number } = {}): Promise<Owner> {
  const { user, token } = await createUser({ tenantId: options.tenantId ?? 'default', name: 'owner', balance: options.balance ?? 0 }, 1_700_000_000);
  const source = await createSource({ userId: user.userId, name: 'Fixture source' }, 1_700_000_000);
  return { user, token, source, bearer: { Authorization: `Bearer ${token}` } };
}

let domainCounter = 0;

/** A tenant with its own domain, so requests with that `Host` belong to it. */
export async function makeTenant(lang = 'en'): Promise<{ tenantId: string; host: string }> {
  const host = `shop${++domainCounter}-${Math.random().toString(36).slice(2, 8)}.example.com`;
  const tenant = await createTenant({ name: 'Fixture tenant', domain: host, lang }, 1_700_000_000);
  return { tenantId: tenant.tenantId, host };
}

export function makeDraft(sourceId: string, draft: Partial<{ name: string; version: string; downloadUrl: string }> = {}): Promise<App> {
  return createApp(
    {
      sourceId,
      name: draft.name ?? 'Fixture App',
      version: draft.version ?? '1.0.0',
      downloadUrl: draft.downloadUrl ?? 'https://downloads.example.com/fixture.ipa',
    },
    1_700_000_000,
  );
}

let udidCounter = 0;

/** A fresh 25-character UDID (`XXXXXXXX-XXXXXXXXXXXXXXXX`, lower-case hex), different on every call. */
export function newUdid(): string {
  return `00008101-${(0xa0000000000 + ++udidCounter).toString(16).padStart(16, '0')}`;
}
