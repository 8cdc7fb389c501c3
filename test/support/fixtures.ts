import { randomUUID } from 'node:crypto';
import { getDeviceRecord, nextDeviceId, putDevice } from '../../shared/db/repositories/device-repository';
import { changeDeviceZt } from '../../shared/db/repositories/issued-device-repository';
import type { Device, DeviceZt } from '../../shared/records/device';
import { createApp, createSource } from '../../shared/domain/sources/source-admin';
import { createTenant } from '../../shared/domain/tenants/tenant-service';
import { createUser } from '../../shared/domain/users/user-service';
import type { App, AppMetadata } from '../../shared/records/app';
import type { Source } from '../../shared/records/source';
import type { User } from '../../shared/records/user';

export interface Owner {
  user: User;
  token: string;
  source: Source;
  bearer: { Authorization: string };
}

/** A user with a token, on `tenantId` (default tenant unless given). */
export function makeUser(options: { tenantId?: string; balance?: number } = {}): Promise<{ user: User; token: string }> {
  return createUser({ tenantId: options.tenantId ?? 'default', name: 'owner', balance: options.balance ?? 0 }, 1_700_000_000);
}

/** A user with a token and one source, on `tenantId` (default tenant unless given). */
export async function makeOwner(options: { tenantId?: string; balance?: number } = {}): Promise<Owner> {
  const { user, token } = await makeUser(options);
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

/** The bundle identifier fixtures derive from an app name, so one name is one app with releases. */
export const bundleIdFor = (name: string) => `com.example.${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'app'}`;

/** A draft complete enough to publish, unless `draft` says otherwise (`downloadUrl` is `download_url`). */
export function makeDraft(sourceId: string, draft: Partial<AppMetadata> & { downloadUrl?: string } = {}): Promise<App> {
  const { downloadUrl, ...fields } = draft;
  const name = fields.name ?? 'Fixture App';
  return createApp(
    sourceId,
    {
      name,
      version: '1.0.0',
      download_url: downloadUrl ?? 'https://downloads.example.com/fixture.ipa',
      bundle_identifier: bundleIdFor(name),
      developer_name: 'Fixture Studio',
      description: 'A fixture app',
      icon_url: 'https://downloads.example.com/icon.png',
      size: 1_048_576,
      ...fields,
    },
    1_700_000_000,
  );
}

let udidCounter = 0;

/** A fresh 25-character UDID (`XXXXXXXX-XXXXXXXXXXXXXXXX`, lower-case hex), different on every call. */
export function newUdid(): string {
  return `00008101-${(0xa0000000000 + ++udidCounter).toString(16).padStart(16, '0')}`;
}

/**
 * A certificate as the add flow stores it, with its secrets, account and Apple device id (fake values a test
 * can look for in answers that must never carry them); `fields` sets whatever the test is about.
 */
export async function storedDevice(user: { userId: string; tenantId: string }, fields: Partial<Device> = {}): Promise<Device> {
  const device: Device = {
    kid: `k-${randomUUID().slice(0, 12)}`,
    id: await nextDeviceId(user.tenantId),
    user_id: user.userId,
    tenant_id: user.tenantId,
    udid: newUdid(),
    pname: 'iPhone',
    type: 'iphone',
    shtype: 0,
    zt: 'normal',
    ytime: 1_760_000_000,
    enabled: true,
    beizhu: '',
    p12: 'MIIKSECRETP12BASE64==',
    mobileprovision: 'MIIPROFILESECRETBASE64==',
    pool: 0,
    account_id: 'acct_secret_team',
    addtime: 1_700_000_000,
    apple_device_id: 'APPLEDEVICE123',
    reservation_id: '',
    ...fields,
  };
  await putDevice(device);
  return device;
}

/** Moves a stored certificate's status as the sweep or the worker would (its owner's count with it). */
export async function moveDeviceZt(kid: string, to: DeviceZt, from: DeviceZt): Promise<void> {
  const device = await getDeviceRecord(kid);
  if (!device || !(await changeDeviceZt({ kid, userId: device.user_id }, to, from))) throw new Error(`certificate ${kid} is not ${from}`);
}
