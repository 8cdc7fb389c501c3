/**
 * Sources through the owner's API: create, list, read back, delete (feed gone at once, nothing left
 * behind); apps listed and drafts deleted; the plan's app limits; what an ended subscription allows, and
 * the feed's grace period, then the suspended document every client still loads.
 */
import { startTestApi, type TestApi } from '../support/api';
import { admin } from '../support/admin-cli';
import { atMinuteStart } from '../support/clock';
import { makeOwner, makeTenant, makeUser, newUdid } from '../support/fixtures';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/db/client';
import { getSubscription } from '../../shared/db/repositories/subscription-repository';
import { feedProblems, NO_PROBLEMS } from '../support/feed-validators';
import { queryAll } from '../../shared/db/paging';
import { tableName } from '../../shared/db/table-names';
import { isPurgePending, purgeSourceItems } from '../../shared/db/repositories/source-lifecycle-repository';
import { batchPut } from '../../shared/db/batch';
import { runSourcePurge } from '../../shared/domain/sources/source-purge';
import { updateSourceShape } from '../../shared/validation/source-settings';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const SUB = '/api/appstore/manage/subscription';
const SOURCES = '/api/appstore/manage/sources';
const feedPath = (id: string) => `/api/rjy/${id}/appstore`;

const draft = (name: string, version = '1.0') => ({
  name,
  version,
  download_url: 'https://dl.example.com/a.ipa',
  bundle_identifier: `com.example.${name.toLowerCase()}`,
  developer_name: 'Studio',
  icon_url: 'https://dl.example.com/a.png',
  size: 100,
});

/** A reseller on a fresh tenant, subscribed to a plan of 2 sources, 3 apps and 2 published apps per source. */
async function subscribed() {
  const { tenantId, host } = await makeTenant('en');
  const plan = await admin('plan', 'create', '--tenant', tenantId, '--name', 'Small', '--price', '100', '--days', '30', '--sources', '2', '--apps-per-source', '3', '--published-per-source', '2');
  const { user, token } = await makeUser({ tenantId, balance: 1000 });
  const headers = { Authorization: `Bearer ${token}`, Host: host, 'X-Lang': 'en' };
  expect((await api.request('POST', SUB, { headers, json: { plan: plan.json.plan_id } })).body.code).toBe(1);
  return { tenantId, host, user, headers, planId: String(plan.json.plan_id) };
}

async function createSource(headers: Record<string, string>, json: Record<string, unknown> = { name: 'Mine' }) {
  const res = await api.request('POST', SOURCES, { headers, json });
  expect(res.body.code).toBe(1);
  return res.body.data as { source_id: string; source_url: string };
}

describe('sources through the API', () => {
  test('create with settings, read back every setting, list with a cursor', async () => {
    const r = await subscribed();
    const health = { enabled: true, webhook_url: 'https://hooks.example.com/x', interval_minutes: 60 };
    const created = await api.request('POST', SOURCES, { headers: r.headers, json: { name: 'Games', message: 'Hi', pay_url: 'https://pay.example.com', open_black: 1, health_alert: health } });
    expect(created.body).toMatchObject({
      code: 1,
      data: { name: 'Games', message: 'Hi', pay_url: 'https://pay.example.com/', open_black: 1, open_black2: 0, encrypt_enabled: 1, health_alert: health, app_count: 0, draft_count: 0, published_count: 0 },
    });
    const { source_id: id, source_url } = created.body.data as { source_id: string; source_url: string };
    expect(source_url).toBe(feedPath(id));
    const read = await api.request('GET', `${SOURCES}/${id}`, { headers: r.headers });
    expect(read.body.data).toEqual(created.body.data);
    expect(JSON.stringify(read.body)).not.toMatch(/link_secret|feed_key|owner_id|tenant_id|plan_counted/);

    const second = await createSource(r.headers, { name: 'Apps' });
    const page1 = await api.request('GET', `${SOURCES}?limit=1`, { headers: r.headers });
    const p1 = page1.body.data as { sources: { source_id: string }[]; next_cursor: string };
    expect(p1.sources).toHaveLength(1);
    const page2 = await api.request('GET', `${SOURCES}?limit=1&cursor=${p1.next_cursor}`, { headers: r.headers });
    const p2 = page2.body.data as { sources: { source_id: string }[]; next_cursor: string | null };
    expect([...p1.sources, ...p2.sources].map((x) => x.source_id).sort()).toEqual([id, second.source_id].sort());
    const page3 = p2.next_cursor ? await api.request('GET', `${SOURCES}?limit=1&cursor=${p2.next_cursor}`, { headers: r.headers }) : undefined;
    if (page3) expect(page3.body.data).toEqual({ sources: [], next_cursor: null });

    // Only the caller's sources on this site, and the feed is served.
    const other = await subscribed();
    expect((await api.request('GET', SOURCES, { headers: other.headers })).body.data).toEqual({ sources: [], next_cursor: null });
    expect((await api.request('GET', `${SOURCES}/${id}`, { headers: other.headers })).body).toMatchObject({ code: 40001 });
    expect((await api.request('GET', feedPath(id), { headers: { Host: r.host } })).status).toBe(200);
  });

  test('the read answers every setting the update route takes: what was saved, and empty values when unset', async () => {
    const r = await subscribed();
    const { source_id: id } = await createSource(r.headers, { name: 'Shown' });
    const fresh = (await api.request('GET', `${SOURCES}/${id}`, { headers: r.headers })).body.data as Record<string, unknown>;
    expect(fresh).toMatchObject({ subtitle: '', description: '', header_url: '', website: '', tint_color: '', featured_apps: [], device_proof: 'optional' });
    // Every field the update route accepts is answered, so a settings form can start from the stored values.
    for (const field of Object.keys(updateSourceShape)) expect(fresh).toHaveProperty(field);

    const settings = {
      subtitle: 'Weekly builds',
      description: 'Line one\nLine two',
      header_url: 'https://img.example.com/header.png',
      website: 'https://example.com/',
      tint_color: '#A1B2C3',
      featured_apps: ['com.example.one', 'com.example.two'],
      device_proof: 'required',
    };
    expect((await api.request('PATCH', `${SOURCES}/${id}`, { headers: r.headers, json: settings })).body.code).toBe(1);
    const read = (await api.request('GET', `${SOURCES}/${id}`, { headers: r.headers })).body.data;
    expect(read).toMatchObject({ ...settings, tint_color: 'A1B2C3', name: 'Shown' });
    const listed = (await api.request('GET', SOURCES, { headers: r.headers })).body.data as { sources: unknown[] };
    expect(listed.sources).toEqual([read]);

    // '' and [] clear them again.
    const cleared = { subtitle: '', description: '', header_url: '', website: '', tint_color: '', featured_apps: [] };
    expect((await api.request('PATCH', `${SOURCES}/${id}`, { headers: r.headers, json: cleared })).body.code).toBe(1);
    expect((await api.request('GET', `${SOURCES}/${id}`, { headers: r.headers })).body.data).toMatchObject({ ...cleared, device_proof: 'required' });
  });

  test('apps up to the plan limit, listed by status with a cursor; a draft is deleted, a published app is not', async () => {
    const r = await subscribed();
    const { source_id: id } = await createSource(r.headers);
    const apps = `${SOURCES}/${id}/apps`;
    for (const name of ['A', 'B', 'C']) expect((await api.request('POST', apps, { headers: r.headers, json: draft(name) })).body.code).toBe(1);
    const over = await api.request('POST', apps, { headers: r.headers, json: draft('D') });
    expect(over.body).toMatchObject({ code: 40003, data: { error: 'quota_exceeded', limit: 3 } });
    expect((await api.request('POST', `${apps}/1/publish`, { headers: r.headers })).body.code).toBe(1);

    const drafts = await api.request('GET', `${apps}?status=draft`, { headers: r.headers });
    expect((drafts.body.data as { apps: { id: number }[] }).apps.map((a) => a.id)).toEqual([2, 3]);
    const first = await api.request('GET', `${apps}?limit=2`, { headers: r.headers });
    const f = first.body.data as { apps: { id: number; publish_status: string }[]; next_cursor: string };
    expect(f.apps.map((a) => [a.id, a.publish_status])).toEqual([
      [1, 'published'],
      [2, 'draft'],
    ]);
    const rest = await api.request('GET', `${apps}?limit=2&cursor=${f.next_cursor}`, { headers: r.headers });
    expect((rest.body.data as { apps: { id: number }[] }).apps.map((a) => a.id)).toEqual([3]);

    const published = await api.request('DELETE', `${apps}/1`, { headers: r.headers });
    expect(published.body).toMatchObject({ code: 40003, data: { error: 'app_published' } });
    expect((await api.request('DELETE', `${apps}/2`, { headers: r.headers })).body).toMatchObject({ code: 1, data: { source_id: id, id: 2, deleted: true } });
    expect((await api.request('DELETE', `${apps}/2`, { headers: r.headers })).body).toMatchObject({ code: 40004 });
    expect((await api.request('GET', `${SOURCES}/${id}`, { headers: r.headers })).body.data).toMatchObject({ app_count: 2, draft_count: 1, published_count: 1 });
    // The freed place takes a new draft.
    expect((await api.request('POST', apps, { headers: r.headers, json: draft('E') })).body.code).toBe(1);
  });

  test('delete: the feed answers 404 at once, the place in the plan comes back, nothing of the source is left', async () => {
    const r = await subscribed();
    const { source_id: id } = await createSource(r.headers);
    await createSource(r.headers, { name: 'Second' });
    const apps = `${SOURCES}/${id}/apps`;
    await api.request('POST', apps, { headers: r.headers, json: draft('A') });
    await api.request('POST', `${apps}/1/publish`, { headers: r.headers });
    await api.request('POST', `${SOURCES}/${id}/unlock-codes`, { headers: r.headers, json: { count: 3, days: 1 } });
    await api.request('PUT', `${SOURCES}/${id}/blocklist/${newUdid()}`, { headers: r.headers });

    const deleted = await api.request('DELETE', `${SOURCES}/${id}`, { headers: r.headers });
    expect(deleted.body).toMatchObject({ code: 1, data: { source_id: id, deleted: true, purge: 'done' } });
    expect((await api.request('GET', feedPath(id), { headers: { Host: r.host } })).status).toBe(404);
    expect((await api.request('GET', `${SOURCES}/${id}`, { headers: r.headers })).body).toMatchObject({ code: 40001 });
    expect((await api.request('DELETE', `${SOURCES}/${id}`, { headers: r.headers })).body).toMatchObject({ code: 40001 });
    for (const table of ['apps', 'sourceProtection', 'linkHealth'] as const) {
      expect(await queryAll({ TableName: tableName(table), KeyConditionExpression: 'source_id = :s', ExpressionAttributeValues: { ':s': id } })).toEqual([]);
    }
    expect(await isPurgePending(id)).toBe(false);
    expect((await api.request('GET', SUB, { headers: r.headers })).body.data).toMatchObject({ usage: { sources: 1 } });
    expect((await api.request('POST', SOURCES, { headers: r.headers, json: { name: 'Again' } })).body.code).toBe(1);
  });

  test('a purge left unfinished is resumed by the purge job and ends with nothing left', async () => {
    const id = 'sPurgeTest01';
    await batchPut(tableName('apps'), Array.from({ length: 60 }, (_, i) => ({ source_id: id, item_key: `app#${String(i + 1).padStart(10, '0')}`, app_id: i + 1 })));
    await batchPut(tableName('sourcePurges'), [{ source_id: id, tenant_id: 'default', deleted_at: 1 }]);
    expect(await purgeSourceItems(id, Date.now() - 1)).toBe(false);
    expect(await isPurgePending(id)).toBe(true);
    const report = await runSourcePurge({ budgetMs: 10_000 });
    expect(report.purged).toBeGreaterThanOrEqual(1);
    expect(await isPurgePending(id)).toBe(false);
    expect(await queryAll({ TableName: tableName('apps'), KeyConditionExpression: 'source_id = :s', ExpressionAttributeValues: { ':s': id } })).toEqual([]);
  });

  test('bad input on the new routes: 40002 naming the parameter, path ids 404, nothing created', async () => {
    const r = await subscribed();
    const { source_id: id } = await createSource(r.headers);
    const posts: [unknown, string, string[]][] = [
      [{}, 'invalid_value', ['name']],
      [{ name: 'x'.repeat(101) }, 'invalid_value', ['name']],
      [{ name: 'a\u0000b' }, 'invalid_value', ['name']],
      [{ name: 'ok', pay_url: 'ftp://x' }, 'invalid_value', ['pay_url']],
      [{ name: 'ok', encrypt_enabled: 2 }, 'invalid_value', ['encrypt_enabled']],
      [{ name: 'ok', health_alert: [] }, 'invalid_value', ['health_alert']],
      [{ name: 'ok', uid: 'u' }, 'admin_field', ['uid']],
      [{ name: 'ok', tenant_id: 't' }, 'admin_field', ['tenant_id']],
      [{ name: 'ok', is_official: 1 }, 'admin_field', ['is_official']],
      [{ name: 'ok', expire_time: 1 }, 'admin_field', ['expire_time']],
      [{ name: 'ok', source_id: 'mine' }, 'read_only_field', ['source_id']],
      [{ name: 'ok', color: 'red' }, 'unknown_field', ['color']],
    ];
    for (const [json, error, fields] of posts) {
      const res = await api.request('POST', SOURCES, { headers: r.headers, json });
      expect([res.status, res.body.code, res.body.data]).toEqual([400, 40002, expect.objectContaining({ error, fields })]);
    }
    const gets: [string, string, string[]][] = [
      [`${SOURCES}?limit=0`, 'invalid_value', ['limit']],
      [`${SOURCES}?limit=101`, 'invalid_value', ['limit']],
      [`${SOURCES}?limit=1x`, 'invalid_value', ['limit']],
      [`${SOURCES}?cursor=%00%00`, 'invalid_value', ['cursor']],
      [`${SOURCES}?cursor=!!!`, 'cursor_invalid', ['cursor']],
      [`${SOURCES}?cursor=${Buffer.from('../x').toString('base64url')}`, 'cursor_invalid', ['cursor']],
      [`${SOURCES}?cursor=${'A'.repeat(201)}`, 'invalid_value', ['cursor']],
      [`${SOURCES}/${id}/apps?status=live`, 'invalid_value', ['status']],
      [`${SOURCES}/${id}/apps?cursor=${Buffer.from('0').toString('base64url')}`, 'cursor_invalid', ['cursor']],
      [`${SOURCES}/${id}?uid=1`, 'admin_field', ['uid']],
      [`${SOURCES}/${id}?x=1`, 'unknown_field', ['x']],
    ];
    for (const [path, error, fields] of gets) {
      const res = await api.request('GET', path, { headers: r.headers });
      expect([path, res.status, res.body.code, res.body.data]).toEqual([path, 400, 40002, expect.objectContaining({ error, fields })]);
    }
    const proto = await api.request('POST', SOURCES, { headers: { ...r.headers, 'Content-Type': 'application/json' }, body: '{"name":"ok","__proto__":{"x":1}}' });
    expect([proto.status, proto.body.code]).toEqual([400, 40002]);
    expect((await api.request('GET', `${SOURCES}/${'x'.repeat(129)}`, { headers: r.headers })).body).toMatchObject({ code: 40001 });
    expect((await api.request('DELETE', `${SOURCES}/${id}/apps/abc`, { headers: r.headers })).body).toMatchObject({ code: 40004 });
    expect((await api.request('DELETE', `${SOURCES}/${id}/apps/1?x=1`, { headers: r.headers })).body).toMatchObject({ code: 40002 });
    expect((await api.request('GET', SUB, { headers: r.headers })).body.data).toMatchObject({ usage: { sources: 1 } });
  });
});

describe('when the subscription ends', () => {
  test('writes answer subscription_expired, reads and deletes work, the feed serves through the grace period, then the suspended document', async () => {
    const r = await subscribed();
    const { source_id: id } = await createSource(r.headers);
    const { source_id: spare } = await createSource(r.headers, { name: 'Spare' });
    const apps = `${SOURCES}/${id}/apps`;
    await api.request('POST', apps, { headers: r.headers, json: draft('A') });
    await api.request('POST', apps, { headers: r.headers, json: draft('B') });
    await api.request('POST', `${apps}/1/publish`, { headers: r.headers });
    expect((await admin('subscription', 'extend', '--user', r.user.userId, '--days', '-31')).json).toMatchObject({ subscription: { status: 'expired' } });

    const writes: [string, string, unknown][] = [
      ['PATCH', `${SOURCES}/${id}`, { name: 'New' }],
      ['POST', apps, draft('C')],
      ['PATCH', `${apps}/2`, { name: 'BB' }],
      ['POST', `${apps}/2/publish`, undefined],
      ['POST', `${SOURCES}/${id}/unlock-codes`, { count: 1, days: 1 }],
      ['PUT', `${SOURCES}/${id}/blocklist/${newUdid()}`, undefined],
      ['POST', SOURCES, { name: 'Third' }],
    ];
    for (const [method, path, json] of writes) {
      const res = await api.request(method, path, { headers: r.headers, ...(json ? { json } : {}) });
      expect([method, path, res.status, res.body.code, (res.body.data as { error: string }).error]).toEqual([method, path, 409, 40003, 'subscription_expired']);
    }
    expect((await api.request('GET', `${SOURCES}/${id}`, { headers: r.headers })).body.code).toBe(1);
    expect((await api.request('GET', apps, { headers: r.headers })).body.code).toBe(1);
    expect((await api.request('DELETE', `${apps}/2`, { headers: r.headers })).body.code).toBe(1);
    expect((await api.request('DELETE', `${SOURCES}/${spare}`, { headers: r.headers })).body.code).toBe(1);

    // Within the grace period (7 days by default) the feed is the real one.
    const udid = newUdid();
    const served = await api.request('GET', `${feedPath(id)}?udid=${udid}`, { headers: { Host: r.host } });
    expect((served.body.apps as { name: string }[]).map((a) => a.name)).toEqual(['A']);

    // Past it: the suspended document, in the reader's language, valid for every client; its link refuses.
    await admin('subscription', 'extend', '--user', r.user.userId, '--days', '-7');
    for (const lang of ['en', 'es']) {
      const res = await api.request('GET', `${feedPath(id)}?udid=${udid}`, { headers: { Host: r.host, 'X-Lang': lang } });
      expect(res.status).toBe(200);
      expect(feedProblems(res.body)).toEqual(NO_PROBLEMS);
      const apps0 = res.body.apps as { name: string; bundleIdentifier: string; downloadURL: string }[];
      expect(apps0).toHaveLength(1);
      expect(apps0[0]!.bundleIdentifier).toBe(`suspended.${id}`);
      expect(res.body.name).toBe(lang === 'en' ? 'Source suspended' : 'Fuente suspendida');
      const link = new URL(apps0[0]!.downloadURL);
      const gate = await api.request('GET', `${link.pathname}${link.search}`, { headers: { Host: r.host, 'X-Lang': lang } });
      expect([gate.status, (gate.body.data as { error: string }).error]).toEqual([403, 'source_suspended']);
    }
    const bare = await api.request('GET', feedPath(id), { headers: { Host: r.host } });
    expect(feedProblems(bare.body)).toEqual(NO_PROBLEMS);

    // Renewing brings the feed and the writes back.
    expect((await api.request('POST', SUB, { headers: r.headers, json: { plan: r.planId } })).body.code).toBe(1);
    expect(((await api.request('GET', feedPath(id), { headers: { Host: r.host } })).body.apps as { name: string }[]).map((a) => a.name)).toEqual(['A']);
    expect((await api.request('PATCH', `${SOURCES}/${id}`, { headers: r.headers, json: { name: 'New' } })).body.code).toBe(1);
  });

  test('update source, whose check of the subscription rides in its one transaction: none or another tenant’s answers subscription_required, an ended one subscription_expired with its end, a running one writes; a refusal changes nothing and is counted once', async () => {
    // The counts are per calendar minute: a minute turning over between two requests would give its count back.
    await atMinuteStart(async () => {
      const { tenantId, host } = await makeTenant('en');
      const plan = await admin('plan', 'create', '--tenant', tenantId, '--name', 'Small', '--price', '100', '--days', '30', '--sources', '2', '--apps-per-source', '3', '--published-per-source', '2');
      const owner = await makeOwner({ tenantId, balance: 1000 });
      const headers = { ...owner.bearer, Host: host, 'X-Lang': 'en' };
      const path = `${SOURCES}/${owner.source.source_id}`;
      const remaining: number[] = [];
      const patch = async (name: string) => {
        const res = await api.request('PATCH', path, { headers, json: { name, message: `${name} news` } });
        remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
        return res;
      };
      const stored = async () => {
        const read = await api.request('GET', path, { headers });
        const { name, message } = read.body.data as { name: string; message: string };
        return { name, message };
      };

      // Never subscribed on this tenant.
      const before = await stored();
      expect((await patch('Nope')).body).toMatchObject({ code: 40003, data: { error: 'subscription_required' } });
      expect(await stored()).toEqual(before);
      // Someone else without a subscription is told so before being told the source is not theirs, as when the
      // subscription was read first.
      const stranger = await makeUser({ tenantId });
      const foreign = await api.request('PATCH', path, { headers: { ...headers, Authorization: `Bearer ${stranger.token}` }, json: { name: 'Theirs' } });
      expect(foreign.body).toMatchObject({ code: 40003, data: { error: 'subscription_required' } });
      expect(await stored()).toEqual(before);

      // Subscribed: written.
      expect((await api.request('POST', SUB, { headers, json: { plan: plan.json.plan_id } })).body.code).toBe(1);
      expect((await patch('Running')).body).toMatchObject({ code: 1, data: { name: 'Running', message: 'Running news' } });
      const written = await stored();
      expect(written).toEqual({ name: 'Running', message: 'Running news' });

      // A subscription held on another tenant does not let the owner write here.
      const key = { user_id: owner.user.userId, item_key: 'current' };
      const moveTo = (tenant: string) => documentClient().send(new UpdateCommand({ TableName: tableName('subscriptions'), Key: key, UpdateExpression: 'SET tenant_id = :t', ExpressionAttributeValues: { ':t': tenant } }));
      await moveTo('another-tenant');
      expect((await patch('Elsewhere')).body).toMatchObject({ code: 40003, data: { error: 'subscription_required' } });
      expect(await stored()).toEqual(written);
      await moveTo(tenantId);

      // Ended: refused with its end, which the owner can show.
      await admin('subscription', 'extend', '--user', owner.user.userId, '--days', '-31');
      const ended = (await getSubscription(owner.user.userId))!.expiresAt;
      expect(ended).toBeLessThan(Date.now() / 1000);
      const expired = await patch('Late');
      expect([expired.status, expired.body.code, expired.body.data]).toEqual([409, 40003, { error: 'subscription_expired', expires_at: ended }]);
      expect(await stored()).toEqual(written);

      // Each request, refused or not, took exactly one from the owner's count.
      expect(remaining.slice(1).map((r, i) => remaining[i]! - r)).toEqual([1, 1, 1]);
    });
  });

  test("a tenant's grace period is its setting; 0 suspends the feed as soon as the subscription ends", async () => {
    const r = await subscribed();
    const { source_id: id } = await createSource(r.headers);
    await admin('tenant', 'set', '--tenant', r.tenantId, '--grace-days', '0');
    await admin('subscription', 'extend', '--user', r.user.userId, '--days', '-30');
    // The local runtime caches tenants briefly (TENANT_CACHE_SECONDS); the test environment turns it off.
    const res = await api.request('GET', feedPath(id), { headers: { Host: r.host } });
    expect((res.body.apps as { bundleIdentifier: string }[])[0]!.bundleIdentifier).toBe(`suspended.${id}`);
  });
});
