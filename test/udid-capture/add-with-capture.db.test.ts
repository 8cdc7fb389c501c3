/**
 * The add routes take `capture` (a capture's ticket) in place of `udid`: the device that proved itself is the
 * one added; a ticket that does not verify on this tenant, or is expired, or comes with a udid, adds nothing.
 */
import { jest } from '@jest/globals';
import { add, balanceOf, newUser, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';
import { makeOwner, makeTenant } from '../support/fixtures';
import { SignJWT } from 'jose';
import { createSource } from '../../shared/domain/sources/source-admin';
import { signingKeys } from '../../shared/domain/udid-capture/capture-keys';
import { issueTicket } from '../../shared/domain/udid-capture/ticket';
import type { UdidCapture } from '../../shared/records/udid-capture';

jest.setTimeout(90_000);

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
  await simulatedAccount(bed.sim, { mode: 'instant' });
}, 180_000);
afterAll(() => bed.close());

async function ticketFor(udid: string, tenantId = 'default', capturedAt = Math.floor(Date.now() / 1000), bound: Partial<Pick<UdidCapture, 'source_id' | 'owner_id'>> = {}): Promise<string> {
  const capture: UdidCapture = {
    capture_id: 'cap_test', tenant_id: tenantId, source_id: '', owner_id: '', udid, product: 'iPhone15,2', version: '17.4',
    serial: '', device_name: '', return_url: 'https://shop.example.com/done', captured_at: capturedAt, verified: true, ...bound,
  };
  return issueTicket(await signingKeys(tenantId, capturedAt), capture);
}

test('capture=<ticket> adds the ticket’s UDID, on the v2 and the legacy route', async () => {
  const { token } = await newUser();
  const udid = udid25();
  const res = await add(bed.api, { token, capture: await ticketFor(udid) }, { via: 'form' });
  expect(res.body.code).toBe(1);
  const info = await bed.api.request('GET', `/api/device/info?token=${token}&kid=${String(res.body.data!.id)}`);
  expect(info.body.data!.udid).toBe(udid);
  const legacy = await add(bed.api, { token, capture: await ticketFor(udid25()) }, { path: '/api/adddevice', via: 'query' });
  expect(legacy.body.code).toBe(1);
});

test('a bad, forged, expired or foreign ticket, or one with a udid, is refused by name and charges nothing', async () => {
  const { userId, token } = await newUser();
  const before = await balanceOf(userId);
  const good = await ticketFor(udid25());
  const other = await makeTenant();
  const [h, p] = good.split('.');
  const cases: [Record<string, unknown>, string][] = [
    [{ capture: 'not-a-ticket' }, 'capture_invalid'],
    [{ capture: '' }, 'capture_invalid'],
    [{ capture: { a: 1 } }, 'capture_invalid'],
    [{ capture: `${h}.${p}.${'A'.repeat(86)}` }, 'capture_invalid'],
    [{ capture: `${h}.${p}x.${good.split('.')[2]}` }, 'capture_invalid'],
    [{ capture: await ticketFor(udid25(), 'default', Math.floor(Date.now() / 1000) - 2 * 86_400) }, 'capture_invalid'],
    [{ capture: await ticketFor(udid25(), other.tenantId) }, 'capture_invalid'],
    [{ capture: 'x'.repeat(5000) }, 'capture_invalid'],
    [{ capture: good, udid: udid25() }, 'capture_with_udid'],
  ];
  for (const [params, reason] of cases) {
    const res = await add(bed.api, { token, ...params });
    expect([reason, res.body.code, res.body.data?.error, res.body.data?.fields]).toEqual([reason, 0, reason, ['capture']]);
  }
  expect(await balanceOf(userId)).toBe(before);
});

test('issue 39: a ticket names its reseller and source — another reseller’s add, or another source beside it, is refused and charges nothing', async () => {
  const mine = await makeOwner({ balance: 1_000_000 });
  const theirs = await makeOwner({ balance: 1_000_000 });
  const second = await createSource({ userId: mine.user.userId, name: 'Second' }, 1_700_000_000);
  const udid = udid25();
  const ticket = await ticketFor(udid, 'default', Math.floor(Date.now() / 1000), { source_id: mine.source.source_id, owner_id: mine.user.userId });
  const before = [await balanceOf(mine.user.userId), await balanceOf(theirs.user.userId)];
  for (const [token, params] of [
    [theirs.token, {}],
    [theirs.token, { source_id: theirs.source.source_id }],
    [mine.token, { source_id: second.source_id }],
  ] as const) {
    const res = await add(bed.api, { token, capture: ticket, ...params }, { lang: 'ru' });
    expect([res.body.code, res.body.data?.error, res.body.data?.fields]).toEqual([0, 'capture_foreign', ['capture']]);
    expect(res.body.msg).toBe('Билет захвата принадлежит другому реселлеру или другому источнику и здесь недействителен');
  }
  expect([await balanceOf(mine.user.userId), await balanceOf(theirs.user.userId)]).toEqual(before);
  // A ticket from before the binding (no reseller, no return target in it) is no ticket.
  const now = Math.floor(Date.now() / 1000);
  const keys = await signingKeys('default', now);
  const unbound = await new SignJWT({ tid: 'default', sid: '', cid: 'cap_old', product: 'iPhone15,2', ios: '17.4' })
    .setProtectedHeader({ alg: 'ES256', kid: keys.ticketKid, typ: 'JWT' }).setSubject(udid25()).setAudience('udid-capture').setIssuedAt(now).setExpirationTime(now + 3600).sign(keys.ticketKey);
  expect((await add(bed.api, { token: mine.token, capture: unbound })).body.data?.error).toBe('capture_invalid');
  // Its own reseller, on its own source: the add goes through with the feed URL.
  const own = await add(bed.api, { token: mine.token, capture: ticket, source_id: mine.source.source_id });
  expect([own.body.code, typeof own.body.data?.feed_url]).toEqual([1, 'string']);
});
