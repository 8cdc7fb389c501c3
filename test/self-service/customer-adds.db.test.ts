/**
 * What a proven device does from its page: redeem a reseller's activation code (the add the code's owner
 * would make: the code fixes mode and tier, it is consumed once under any race, the ledger adds up) and take
 * the free re-issue of a revoked certificate under warranty (never charged). Refusals by name: used, unknown,
 * wrong mode, bad input, no session, the device's hour used up.
 */
import { moveDeviceZt } from '../support/fixtures';
import { jest } from '@jest/globals';
import { add, balanceOf, udid25, type Testbed } from '../support/add-device-testbed';
import type { Owner } from '../support/fixtures';
import { expectLedgerAddsUp, ledgerOf } from '../support/ledger';
import type { DeviceCa } from '../../infra/device-simulator/device-pki';
import type { SimulatedTeam } from '../../infra/asc-simulator/server';
import { getCode } from '../../shared/db/repositories/code-repository';
import { listCertificatesOfUdid } from '../../shared/db/repositories/self-service-repository';
import { createCode } from '../../shared/domain/pricing/activation-codes';
import { DEVICE_ATTEMPTS_PER_HOUR } from '../../shared/domain/self-service/customer-limits';
import { call, capture, customerWorld, enter, freshIp } from './customer-support';

jest.setTimeout(180_000);

let bed: Testbed;
let ca: DeviceCa;
let owner: Owner;
let team: SimulatedTeam;
let url: string;
beforeAll(async () => {
  ({ bed, team, ca, owner, url } = await customerWorld());
}, 180_000);
afterAll(() => bed.close());

const installPage = () => `${url}/api/rjy/${owner.source.source_id}/install`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A device proven through the source's install page, from its own address. */
async function provenDevice(udid = udid25()) {
  const from = freshIp();
  const { cookie } = await enter(await capture(ca, `${url}/api/rjy/${owner.source.source_id}/udid.mobileconfig`, udid), from);
  return { udid, cookie, from };
}

const redeem = (device: { cookie: string; from: string }, form: Record<string, string>, lang = 'en') =>
  call(`${url}/api/customer/redeem`, { cookie: device.cookie, from: device.from, form, lang });

test('a code redeemed on the page is the owner’s add: the certificate is there to download, the code used, the owner charged nothing', async () => {
  const device = await provenDevice();
  const { code } = await createCode({ userId: owner.user.userId, mode: 'instant', tier: 1 }, nowSeconds());
  const balance = await balanceOf(owner.user.userId);

  const res = await redeem(device, { code: ` ${code.toLowerCase()} `, source: owner.source.source_id });
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe(`${installPage()}?done=ready`);
  const used = await getCode(code);
  expect([used?.usedBy, used?.usedAt !== undefined]).toEqual([owner.user.userId, true]);
  expect(await balanceOf(owner.user.userId)).toBe(balance);

  const page = await call(String(res.headers.location), { cookie: device.cookie });
  expect(page.text).toContain('Your certificate is ready to download.');
  const [certificate] = await listCertificatesOfUdid('default', device.udid);
  expect([certificate?.user_id, certificate?.zt, certificate?.shtype]).toEqual([owner.user.userId, 'normal', 1]);
  expect(page.text).toContain(`/api/customer/download?kid=${certificate!.kid}`);
  expect(page.text).not.toContain(owner.token);
  // The add's own event, as an add through the route writes it.
  const ledger = await ledgerOf(owner.user.userId);
  expect(ledger.at(-1)).toMatchObject({ kind: 'charge', amount: 0, code, kid: certificate!.kid });
  await expectLedgerAddsUp('default');
});

test('refusals by name, in the customer’s language, changing nothing: used, unknown, wrong mode, bad input, no session', async () => {
  const device = await provenDevice();
  const { code: spent } = await createCode({ userId: owner.user.userId, mode: 'instant', tier: 0 }, nowSeconds());
  expect((await redeem(await provenDevice(), { code: spent })).status).toBe(303);
  const { code: fresh } = await createCode({ userId: owner.user.userId, mode: 'instant', tier: 0 }, nowSeconds());

  const used = await redeem(device, { code: spent });
  expect([used.status, used.headers['x-error']]).toEqual([409, 'code_used']);
  expect(used.text).toContain('This activation code has already been used');
  const usedZh = await redeem({ ...device, from: freshIp() }, { code: spent }, 'zh');
  expect(usedZh.text).toContain('激活码已被使用');
  const unknown = await redeem({ ...device, from: freshIp() }, { code: 'ZZZZ9999ZZZZ' });
  expect([unknown.status, unknown.headers['x-error']]).toEqual([409, 'code_invalid']);
  const wrongMode = await redeem({ ...device, from: freshIp() }, { code: fresh, mode: 'review' });
  expect([wrongMode.status, wrongMode.headers['x-error']]).toEqual([409, 'code_mode_mismatch']);

  for (const form of [{ code: '' }, { code: '!!!!' }, { code: 'A'.repeat(65) }, { code: fresh, mode: 'fast' }, { code: fresh, source: '../x' }, {}]) {
    const bad = await redeem({ ...device, from: freshIp() }, form as Record<string, string>);
    expect([form, bad.status, bad.headers['x-error']]).toEqual([form, 400, 'invalid_value']);
  }
  // Without a session (a typed UDID is no session): refused before the code is looked at.
  const anonymous = await call(`${url}/api/customer/redeem`, { form: { code: fresh, udid: device.udid }, from: freshIp() });
  expect([anonymous.status, anonymous.headers['x-error']]).toEqual([401, 'session_required']);
  // Session auth runs in the chain before the action's parameters are read: without a session, bad input is
  // refused as no session too, and a caller without one learns nothing about what the form takes.
  for (const form of [{ code: '!!!!' }, {}] as Record<string, string>[]) {
    const blind = await call(`${url}/api/customer/redeem`, { form, from: freshIp() });
    expect([form, blind.status, blind.headers['x-error']]).toEqual([form, 401, 'session_required']);
  }
  const blindDownload = await call(`${url}/api/customer/download?kid=..%2Fx`, { from: freshIp() });
  expect([blindDownload.status, blindDownload.headers['x-error']]).toEqual([401, 'session_required']);

  expect((await getCode(fresh))?.usedAt).toBeUndefined();
  expect(await listCertificatesOfUdid('default', device.udid)).toEqual([]);
  await expectLedgerAddsUp('default');
});

test('one code raced by 8 proven devices: 1 add, 1 registration, 7 code_used; 6 racing redeems of one device: 1 certificate', async () => {
  // Captured one after another (the race under test is the redeems').
  const devices = [];
  for (let i = 0; i < 8; i++) devices.push(await provenDevice());
  const { code } = await createCode({ userId: owner.user.userId, mode: 'instant', tier: 2 }, nowSeconds());
  const before = bed.sim.registeredDevices(team.teamId).length;
  const answers = await Promise.all(devices.map((d) => redeem(d, { code })));
  expect(answers.filter((a) => a.status === 303)).toHaveLength(1);
  expect(answers.filter((a) => a.status === 409).map((a) => a.headers['x-error'])).toEqual(Array(7).fill('code_used'));
  expect(bed.sim.registeredDevices(team.teamId).length - before).toBe(1);
  const certificates = (await Promise.all(devices.map((d) => listCertificatesOfUdid('default', d.udid)))).flat();
  expect(certificates.map((c) => [c.zt, c.shtype])).toEqual([['normal', 2]]);

  const one = await provenDevice();
  const { code: second } = await createCode({ userId: owner.user.userId, mode: 'instant', tier: 0 }, nowSeconds());
  const same = await Promise.all(Array.from({ length: 6 }, () => redeem(one, { code: second })));
  // The add's lock: the first adds, the others wait and find its certificate (or the code already used).
  expect(same.filter((a) => a.status === 303).length).toBeGreaterThanOrEqual(1);
  expect(same.every((a) => a.status === 303 || a.headers['x-error'] === 'code_used')).toBe(true);
  expect((await listCertificatesOfUdid('default', one.udid)).map((c) => c.zt)).toEqual(['normal']);
  await expectLedgerAddsUp('default');
});

test('a device’s hour of attempts is limited: the next is 429 with a localized page', async () => {
  const device = await provenDevice();
  for (let i = 0; i < DEVICE_ATTEMPTS_PER_HOUR; i++) {
    const res = await redeem({ ...device, from: freshIp() }, { code: `NOPE${i}XYZ` });
    expect(res.headers['x-error']).toBe('code_invalid');
  }
  const limited = await redeem({ ...device, from: freshIp() }, { code: 'NOPE99XYZ' });
  expect([limited.status, limited.headers['x-error']]).toEqual([429, 'redeem_limited']);
  expect(limited.text).toMatch(/Too many attempts; try again in \d+ seconds/);
});

test('free re-issue of a revoked certificate inside its warranty: free, at the same tier, from the page; outside it refused and nothing charged', async () => {
  const udid = udid25();
  const added = await add(bed.api, { token: owner.token, udid, warranty: '1' });
  const kid = String(added.body.data!.id);
  await moveDeviceZt(kid, 'revoked', 'normal');
  const device = await provenDevice(udid);
  const balance = await balanceOf(owner.user.userId);

  const res = await call(`${url}/api/customer/reissue`, { cookie: device.cookie, from: device.from, form: { kid, source: owner.source.source_id } });
  expect([res.status, res.headers.location]).toEqual([303, `${installPage()}?done=ready`]);
  const certificates = await listCertificatesOfUdid('default', udid);
  expect(certificates.map((c) => [c.zt, c.shtype])).toEqual([
    ['normal', 1],
    ['revoked', 1],
  ]);
  expect(await balanceOf(owner.user.userId)).toBe(balance);
  // Replaced: the old certificate offers nothing more.
  const again = await call(`${url}/api/customer/reissue`, { cookie: device.cookie, from: device.from, form: { kid } });
  expect([again.status, again.headers['x-error']]).toEqual([409, 'reissue_not_covered']);

  // Tier 0 has no free re-issue: refused, never sold.
  const plain = udid25();
  const zero = String((await add(bed.api, { token: owner.token, udid: plain, warranty: '0' })).body.data!.id);
  await moveDeviceZt(zero, 'revoked', 'normal');
  const other = await provenDevice(plain);
  const before = await balanceOf(owner.user.userId);
  const refused = await call(`${url}/api/customer/reissue`, { cookie: other.cookie, from: other.from, form: { kid: zero } });
  expect([refused.status, refused.headers['x-error']]).toEqual([409, 'reissue_not_covered']);
  expect(refused.text).toContain('not covered by a free re-issue');
  expect(await balanceOf(owner.user.userId)).toBe(before);
  expect((await listCertificatesOfUdid('default', plain)).map((c) => c.zt)).toEqual(['revoked']);
  // Another device's certificate, and bad kids.
  const foreign = await call(`${url}/api/customer/reissue`, { cookie: device.cookie, from: device.from, form: { kid: zero } });
  expect([foreign.status, foreign.headers['x-error']]).toEqual([404, 'certificate_not_found']);
  for (const bad of ['', 'a b', 'k'.repeat(129)]) {
    const res2 = await call(`${url}/api/customer/reissue`, { cookie: device.cookie, from: freshIp(), form: { kid: bad } });
    expect([bad, res2.status, res2.headers['x-error']]).toEqual([bad, 400, 'invalid_value']);
  }
  await expectLedgerAddsUp('default');
});

test('a free re-issue that meets Apple down is not lost: refused as unavailable, nothing charged, still offered, and taken once Apple answers', async () => {
  const udid = udid25();
  const kid = String((await add(bed.api, { token: owner.token, udid, warranty: '1' })).body.data!.id);
  await moveDeviceZt(kid, 'revoked', 'normal');
  const device = await provenDevice(udid);
  const balance = await balanceOf(owner.user.userId);
  const form = { kid, source: owner.source.source_id };

  for (const path of ['/v1/devices', '/v1/profiles']) for (const method of ['GET', 'POST'] as const) bed.sim.injectFault({ teamId: team.teamId, effect: 'unavailable', method, path, times: 20 });
  const down = await call(`${url}/api/customer/reissue`, { cookie: device.cookie, from: device.from, form });
  expect([down.status, down.headers['x-error']]).toEqual([503, 'apple_unavailable']);
  expect(await balanceOf(owner.user.userId)).toBe(balance);
  // Apple is back; the page still offers the re-issue.
  bed.sim.clearFaults(team.teamId);
  const page = await call(`${url}/api/rjy/${owner.source.source_id}/install`, { cookie: device.cookie, from: device.from });
  expect(page.text).toContain('/api/customer/reissue');

  const again = await call(`${url}/api/customer/reissue`, { cookie: device.cookie, from: device.from, form });
  expect([again.status, again.headers.location]).toEqual([303, `${installPage()}?done=ready`]);
  expect((await listCertificatesOfUdid('default', udid)).filter((c) => c.zt !== 'failed').map((c) => c.zt)).toEqual(['normal', 'revoked']);
  expect(await balanceOf(owner.user.userId)).toBe(balance);
  await expectLedgerAddsUp('default');
});

test('a redeem from an agent’s store page comes back to that store: its brand, the result, the store kept in the forms', async () => {
  const device = await provenDevice();
  const headers = { Authorization: `Bearer ${owner.token}`, 'X-Lang': 'en' };
  const created = await bed.api.request('POST', '/api/user/agents', { headers, json: { name: 'store agent' } });
  const agentId = (created.body.data as { agent_id: string }).agent_id;
  expect((await bed.api.request('POST', '/api/user/agents', { headers, json: { agent_id: agentId, storefront: { name: 'Corner Apps' } } })).body).toMatchObject({ code: 1 });
  const { code } = await createCode({ userId: owner.user.userId, mode: 'instant', tier: 1 }, nowSeconds());

  const res = await redeem(device, { code, store: agentId });
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe(`${url}/api/customer?store=${agentId}&done=ready`);
  const page = await call(String(res.headers.location), { cookie: device.cookie });
  expect(page.text).toContain('<h1>Corner Apps</h1>');
  expect(page.text).toContain('Your certificate is ready to download.');
  expect(page.text).toContain(`<input type="hidden" name="store" value="${agentId}">`);
  // A store id that is no id at all is bad input, like a bad source.
  expect((await redeem({ ...device, from: freshIp() }, { code: 'ZZZZ9999ZZZZ', store: '../x' })).status).toBe(400);
});
