/**
 * Issue 33: the add's answer and device info hand out the device's own feed URL when the caller names one of
 * their sources (`source_id`). A wrong source refuses the request before anything is paid; without the
 * parameter the answers are what they were.
 */
import { listDevicesByUserUdid } from '../../shared/db/repositories/device-repository';
import { createSource } from '../../shared/domain/sources/source-admin';
import { translate } from '../../shared/i18n/catalog';
import { add, balanceOf, newUser, simulatedAccount, startTestbed, udid25, udid40, type Testbed } from '../support/add-device-testbed';

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
  await simulatedAccount(bed.sim, { mode: 'instant' });
  await simulatedAccount(bed.sim, { mode: 'review' });
});
afterAll(() => bed.close());

const DEVICE_URL = /^http:\/\/[^/]+\/api\/rjy\/([a-z0-9]+)\/appstore\?dk=[A-Za-z0-9_-]{32}$/;

async function ownerWithSource(balance = 100_000) {
  const user = await newUser(balance);
  const source = await createSource({ userId: user.userId, name: 'Shop feed' }, 1_700_000_000);
  return { ...user, sourceId: source.source_id };
}

/** What the owner's device-url endpoint hands out for the UDID: the same URL must come back from the add. */
async function ownerDeviceUrl(owner: { token: string; sourceId: string }, udid: string): Promise<string> {
  const res = await bed.api.request('GET', `/api/appstore/manage/sources/${owner.sourceId}/device-url?udid=${udid}`, { headers: { Authorization: `Bearer ${owner.token}` } });
  return res.body.data!.url as string;
}

/** The path and query of a URL the service handed out, to request it from the test API. */
const local = (url: string) => `${new URL(url).pathname}${new URL(url).search}`;

describe('the add hands out the device URL', () => {
  test.each([
    ['/api/adddevice/v2', {}],
    ['/api/adddevice/v2', { mode: 'review' }],
    ['/api/adddevice', {}],
    ['/api/addyydevice', {}],
  ])('%s %j with source_id answers feed_url, the device’s own URL, which reads the feed', async (path, extra) => {
    const owner = await ownerWithSource();
    const udid = udid40();
    const res = await add(bed.api, { token: owner.token, udid, source_id: owner.sourceId, ...extra }, { path });
    expect(res.body).toMatchObject({ code: 1 });
    const feedUrl = res.body.data!.feed_url as string;
    expect(feedUrl).toMatch(DEVICE_URL);
    expect(DEVICE_URL.exec(feedUrl)![1]).toBe(owner.sourceId);
    // one key per device: the owner's endpoint (which upper-cases the UDID) hands out the same URL
    expect(await ownerDeviceUrl(owner, udid.toUpperCase())).toBe(feedUrl);
    const feed = await bed.api.request('GET', local(feedUrl));
    expect(feed.status).toBe(200);
    expect(feed.body).toMatchObject({ name: 'Shop feed' });
  });

  test('a repeated add hands out the same URL again, and the URL works through a form post too', async () => {
    const owner = await ownerWithSource();
    const udid = udid25();
    const first = await add(bed.api, { token: owner.token, udid, source_id: owner.sourceId }, { via: 'form' });
    const again = await add(bed.api, { token: owner.token, udid, source_id: owner.sourceId }, { via: 'query' });
    expect(again.body.data!.id).toBe(first.body.data!.id);
    expect(again.body.data!.feed_url).toBe(first.body.data!.feed_url);
  });

  test('without source_id the answer is what it was: no feed_url', async () => {
    const owner = await ownerWithSource();
    const res = await add(bed.api, { token: owner.token, udid: udid25() });
    expect(res.body.code).toBe(1);
    expect(Object.keys(res.body.data!).sort()).toEqual(['addtime', 'id', 'mobileprovision', 'p12', 'pool']);
  });

  test.each([
    ['a source id with symbols', () => 'abc/../x', { error: 'invalid_value', fields: ['source_id'] }],
    ['an over-long source id', () => 's'.repeat(129), { error: 'invalid_value', fields: ['source_id'] }],
    ['an object as source id', () => ({ id: 'x' }), { error: 'invalid_value', fields: ['source_id'] }],
    ['an unknown source', () => 'snosuchsource', { error: 'source_not_found' }],
  ])('%s is refused with code 0 before anything is paid', async (_name, sourceId, expected) => {
    const owner = await ownerWithSource();
    const udid = udid25();
    const res = await add(bed.api, { token: owner.token, udid, source_id: sourceId() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 0, ysucc: 'Yerror', data: expected });
    expect(await balanceOf(owner.userId)).toBe(100_000);
    expect(await listDevicesByUserUdid(owner.userId, udid)).toHaveLength(0);
  });

  test('another user’s source answers source_not_found in the caller’s language, and nothing is paid', async () => {
    const owner = await ownerWithSource();
    const stranger = await ownerWithSource();
    const udid = udid25();
    const res = await add(bed.api, { token: stranger.token, udid, source_id: owner.sourceId }, { lang: 'es' });
    expect(res.body).toMatchObject({ code: 0, msg: translate('es', 'source_not_found'), data: { error: 'source_not_found' } });
    expect(await balanceOf(stranger.userId)).toBe(100_000);
    expect(await listDevicesByUserUdid(stranger.userId, udid)).toHaveLength(0);
  });
});

describe('device info hands out the device URL', () => {
  const info = (params: Record<string, string>, lang = 'en') => bed.api.request('GET', `/api/device/info?${new URLSearchParams(params).toString()}`, { headers: { 'X-Lang': lang } });

  test('with source_id the info carries feed_url (the add’s URL); without it, the info is unchanged', async () => {
    const owner = await ownerWithSource();
    const added = await add(bed.api, { token: owner.token, udid: udid25(), source_id: owner.sourceId });
    const kid = added.body.data!.id as string;
    const withUrl = await info({ token: owner.token, kid, source_id: owner.sourceId });
    expect(withUrl.body).toMatchObject({ code: 1, data: { kid, feed_url: added.body.data!.feed_url } });
    const plain = await info({ token: owner.token, kid });
    expect(plain.body.code).toBe(1);
    expect(plain.body.data).not.toHaveProperty('feed_url');
  });

  test.each([
    ['a source id with symbols', 'a b', 400, 40002, { error: 'invalid_value', fields: ['source_id'] }],
    ['an unknown source', 'snosuchsource', 200, 40001, { error: 'source_not_found' }],
  ])('%s is refused in the device envelope', async (_name, sourceId, status, code, data) => {
    const owner = await ownerWithSource();
    const added = await add(bed.api, { token: owner.token, udid: udid25() });
    const res = await info({ token: owner.token, kid: added.body.data!.id as string, source_id: sourceId }, 'ru');
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code, data });
    expect(res.body.msg).toBe(translate('ru', data.error as 'source_not_found', { fields: 'source_id' }));
  });

  test('another user’s source is not found, even for the caller’s own device', async () => {
    const owner = await ownerWithSource();
    const stranger = await ownerWithSource();
    const added = await add(bed.api, { token: stranger.token, udid: udid25() });
    const res = await info({ token: stranger.token, kid: added.body.data!.id as string, source_id: owner.sourceId });
    expect(res.body).toMatchObject({ code: 40001, data: { error: 'source_not_found' } });
  });
});
