import { startTestApi, type TestApi } from '../support/api';
import { makeDraft, makeOwner, makeTenant } from '../support/fixtures';
import { getSource, updateOwnedSource } from '../../shared/db/repositories/source-repository';
import { updateSourceSettings } from '../../shared/domain/sources/source-service';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const path = (sourceId: string) => `/api/appstore/manage/sources/${sourceId}`;

describe('update source settings', () => {
  test('updates only the supplied fields and answers the response fields, in English and Russian', async () => {
    const owner = await makeOwner();
    await makeDraft(owner.source.source_id);
    await makeDraft(owner.source.source_id);
    const res = await api.request('PATCH', path(owner.source.source_id), {
      headers: { ...owner.bearer, 'X-Lang': 'en' },
      json: { name: 'Renamed', message: 'Hello', encrypt_enabled: 0 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 1, msg: 'Success' });
    expect(res.body.data).toEqual({
      source_id: owner.source.source_id,
      name: 'Renamed',
      source_url: `/api/rjy/${owner.source.source_id}/appstore`,
      message: 'Hello',
      encrypt_enabled: 0,
      app_count: 2,
    });
    const ru = await api.request('PATCH', path(owner.source.source_id), { headers: { ...owner.bearer, 'X-Lang': 'ru' }, json: { identifier: 'com.example.src' } });
    expect(ru.body).toMatchObject({ code: 1, msg: 'Успешно', data: { name: 'Renamed', message: 'Hello' } });
    const stored = await getSource(owner.source.source_id);
    expect(stored).toMatchObject({ name: 'Renamed', message: 'Hello', identifier: 'com.example.src', encrypt_enabled: 0, open_black: 0 });
  });

  test('accepts parameters from the query string and from a form body', async () => {
    const owner = await makeOwner();
    const q = await api.request('PATCH', `${path(owner.source.source_id)}?open_black=1&pay_url=${encodeURIComponent('https://pay.example.com/x')}`, { headers: owner.bearer });
    expect(q.body.code).toBe(1);
    const form = await api.request('PATCH', path(owner.source.source_id), { headers: owner.bearer, form: { open_black2: '1', source_icon: 'http://cdn.example.com/i.png' } });
    expect(form.body.code).toBe(1);
    expect(await getSource(owner.source.source_id)).toMatchObject({ open_black: 1, open_black2: 1, pay_url: 'https://pay.example.com/x', source_icon: 'http://cdn.example.com/i.png' });
  });

  test('a repeated form key keeps its last value; a JSON array is a value of its own and is refused', async () => {
    const owner = await makeOwner();
    const form = await api.request('PATCH', path(owner.source.source_id), { headers: { ...owner.bearer, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'name=first&name=second' });
    expect(form.body).toMatchObject({ code: 1, data: { name: 'second' } });
    const json = await api.request('PATCH', path(owner.source.source_id), { headers: owner.bearer, json: { name: ['a', 'b'] } });
    expect(json.body).toMatchObject({ code: 40002, data: { error: 'invalid_value', fields: ['name'] } });
    expect((await getSource(owner.source.source_id))?.name).toBe('second');
  });

  test('health_alert replaces the stored object whole, as an object or a JSON string', async () => {
    const owner = await makeOwner();
    const first = await api.request('PATCH', path(owner.source.source_id), {
      headers: owner.bearer,
      json: { health_alert: { enabled: true, webhook_url: 'https://hook.example.com/a', failure_threshold: 3, secret: 's'.repeat(16) } },
    });
    expect(first.body.code).toBe(1);
    await api.request('PATCH', path(owner.source.source_id), { headers: owner.bearer, json: { health_alert: { enabled: false } } });
    expect((await getSource(owner.source.source_id))?.health_alert).toEqual({ enabled: false });
    await api.request('PATCH', path(owner.source.source_id), { headers: owner.bearer, form: { health_alert: '{"webhook_url":"https://hook.example.com/b","interval_minutes":60}' } });
    expect((await getSource(owner.source.source_id))?.health_alert).toEqual({ webhook_url: 'https://hook.example.com/b', interval_minutes: 60 });
    await api.request('PATCH', path(owner.source.source_id), { headers: owner.bearer, json: { health_alert: {} } });
    expect((await getSource(owner.source.source_id))?.health_alert).toEqual({});
  });

  test('lengths count code points: 100 emoji fit in name, 101 characters do not', async () => {
    const owner = await makeOwner();
    const ok = await api.request('PATCH', path(owner.source.source_id), { headers: owner.bearer, json: { name: '😀'.repeat(100) } });
    expect(ok.body.code).toBe(1);
    const tooLong = await api.request('PATCH', path(owner.source.source_id), { headers: { ...owner.bearer, 'X-Lang': 'en' }, json: { name: 'a'.repeat(101), identifier: 'b'.repeat(101) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ code: 40002, msg: 'Invalid value for: name, identifier', data: { error: 'invalid_value', fields: ['name', 'identifier'] } });
  });

  test.each(([
    ['encrypt_enabled', '1x'],
    ['encrypt_enabled', 2],
    ['open_black', 'true'],
    ['open_black2', '01'],
    ['source_icon', 'ftp://cdn.example.com/i.png'],
    ['source_icon', ''],
    ['pay_url', 'javascript:alert(1)'],
    ['pay_url', `https://example.com/${'a'.repeat(2048)}`, 'a URL over 2048 characters'],
    ['health_alert', '[1,2]'],
    ['health_alert', 'not json'],
    ['health_alert', { big: 'x'.repeat(9000) }, 'an object over 8 KB'],
    ['health_alert', { enabled: true }, 'enabled without a webhook'],
    ['health_alert', { enabled: false, email: 'a@example.com' }, 'an unknown key'],
    ['health_alert', { enabled: 'yes', webhook_url: 'https://h.example.com' }, 'a non-boolean enabled'],
    ['health_alert', { webhook_url: 'ftp://h.example.com' }, 'a non-http webhook'],
    ['health_alert', { webhook_url: 'https://user:pw@h.example.com' }, 'a webhook with credentials'],
    ['health_alert', { interval_minutes: 4 }, 'an interval under 5 minutes'],
    ['health_alert', { interval_minutes: 1441 }, 'an interval over a day'],
    ['health_alert', { interval_minutes: 30.5 }, 'a fractional interval'],
    ['health_alert', { interval_minutes: '30' }, 'an interval as a string'],
    ['health_alert', { failure_threshold: 0 }, 'a threshold of 0'],
    ['health_alert', { failure_threshold: 11 }, 'a threshold over 10'],
    ['health_alert', { notify_recovery: 1 }, 'a non-boolean notify_recovery'],
    ['health_alert', { secret: 'short' }, 'a secret under 16 characters'],
    ['health_alert', { secret: 'x'.repeat(129) }, 'a secret over 128 characters'],
    ['health_alert', null],
    ['name', ''],
    ['name', 42],
  ] as [string, unknown, string?][]).map(([field, value, label]) => [field, label ?? JSON.stringify(value), value] as const))('%s = %s is refused with 40002 and changes nothing', async (field, _label, value) => {
    const owner = await makeOwner();
    const before = await getSource(owner.source.source_id);
    const res = await api.request('PATCH', path(owner.source.source_id), { headers: owner.bearer, json: { name: 'Changed?', [field]: value } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 40002, data: { error: 'invalid_value', fields: [field] } });
    expect(await getSource(owner.source.source_id)).toEqual(before);
  });

  test('administrator-only, read-only and unknown fields are refused, each naming the fields', async () => {
    const owner = await makeOwner();
    const before = await getSource(owner.source.source_id);
    const cases: [Record<string, unknown>, string, string[]][] = [
      [{ name: 'x', uid: 'u_other', tenant_id: 't' }, 'admin_field', ['uid', 'tenant_id']],
      [{ is_official: 1 }, 'admin_field', ['is_official']],
      [{ expire_time: 1 }, 'admin_field', ['expire_time']],
      [{ dqtime: 1 }, 'admin_field', ['dqtime']],
      [{ name: 'x', app_count: 9 }, 'read_only_field', ['app_count']],
      [{ source_url: '/x', source_id: 'y' }, 'read_only_field', ['source_url', 'source_id']],
      [{ name: 'x', colour: 'red' }, 'unknown_field', ['colour']],
    ];
    for (const [json, error, fields] of cases) {
      const res = await api.request('PATCH', path(owner.source.source_id), { headers: { ...owner.bearer, 'X-Lang': 'en' }, json });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 40002, data: { error, fields } });
    }
    expect(await getSource(owner.source.source_id)).toEqual(before);
  });

  test('an empty update and a malformed body are refused in the caller’s language', async () => {
    const owner = await makeOwner();
    const empty = await api.request('PATCH', path(owner.source.source_id), { headers: { ...owner.bearer, 'Accept-Language': 'vi-VN,vi;q=0.9,en;q=0.5' }, json: {} });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: 40002, msg: 'Không có gì để cập nhật: hãy cung cấp ít nhất một trường', data: { error: 'empty_update' } });
    const noBody = await api.request('PATCH', path(owner.source.source_id), { headers: owner.bearer });
    expect(noBody.body).toMatchObject({ code: 40002, data: { error: 'empty_update' } });
    const malformed = await api.request('PATCH', path(owner.source.source_id), { headers: { ...owner.bearer, 'X-Lang': 'ar', 'Content-Type': 'application/json' }, body: '{"name": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 40002, msg: 'تعذر تحليل نص الطلب: أرسل JSON أو بيانات نموذج صالحة', data: { error: 'malformed_body' } });
    const array = await api.request('PATCH', path(owner.source.source_id), { headers: owner.bearer, json: [1, 2] });
    expect(array.body).toMatchObject({ code: 40002, data: { error: 'malformed_body' } });
    const text = await api.request('PATCH', path(owner.source.source_id), { headers: { ...owner.bearer, 'Content-Type': 'text/plain' }, body: 'name=x' });
    expect(text.body).toMatchObject({ code: 40002, data: { error: 'unsupported_media_type' } });
  });

  test("another owner's source answers 40001, the owner's token on another tenant's site is an unknown token there (10); nothing changes", async () => {
    const owner = await makeOwner();
    const stranger = await makeOwner();
    const before = await getSource(owner.source.source_id);
    const foreign = await api.request('PATCH', path(owner.source.source_id), { headers: { ...stranger.bearer, 'X-Lang': 'en' }, json: { name: 'Mine now' } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 40001, data: { error: 'source_not_found' } });
    const site = await makeTenant();
    const otherSite = await api.request('PATCH', path(owner.source.source_id), { headers: { ...owner.bearer, Host: site.host }, json: { name: 'Mine now' } });
    expect([otherSite.status, otherSite.body.code]).toEqual([401, 10]);
    expect(await getSource(owner.source.source_id)).toEqual(before);
  });

  test('the tenant of the Host decides the default language; X-Lang beats Accept-Language', async () => {
    const site = await makeTenant('es');
    const owner = await makeOwner({ tenantId: site.tenantId });
    const byTenant = await api.request('PATCH', path(owner.source.source_id), { headers: { ...owner.bearer, Host: `${site.host}:443` }, json: {} });
    expect(byTenant.body.msg).toBe('Nada que actualizar: indique al menos un campo');
    const traditional = await api.request('PATCH', path(owner.source.source_id), { headers: { ...owner.bearer, Host: site.host, 'Accept-Language': 'zh-HK' }, json: {} });
    expect(traditional.body.msg).toBe('沒有要更新的內容，請至少提供一個欄位');
    expect(traditional.headers.get('content-language')).toBe('zh-TW');
    // On the default tenant's site (a token is valid only on its own tenant's site): its own owner.
    const here = await makeOwner();
    const xlang = await api.request('PATCH', path(here.source.source_id), { headers: { ...here.bearer, 'X-Lang': 'EN', 'Accept-Language': 'ru' }, json: {} });
    expect(xlang.body.msg).toBe('Nothing to update: supply at least one field');
    const fallback = await api.request('PATCH', path(here.source.source_id), { headers: { ...here.bearer, 'X-Lang': 'fr' }, json: {} });
    expect(fallback.body.msg).toBe('没有要更新的内容，请至少提供一个字段');
  });

  test('a request that reached API Gateway over plain HTTP is refused', async () => {
    const owner = await makeOwner();
    const res = await api.request('PATCH', path(owner.source.source_id), { headers: { ...owner.bearer, 'X-Forwarded-Proto': 'http', 'X-Lang': 'en' }, json: { name: 'x' } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ data: { error: 'https_required' }, msg: 'HTTPS is required' });
    expect((await getSource(owner.source.source_id))?.name).toBe('Fixture source');
  });
});

describe('read with the token, written in one transaction (its answer built from the read)', () => {
  test('a setting another request changed after the read is in the answer: the write waited for it and read again', async () => {
    const owner = await makeOwner();
    const actor = { tenantId: owner.user.tenantId, userId: owner.user.userId };
    const sourceId = owner.source.source_id;
    const read = (await getSource(sourceId))!;
    // Another request changes the announcement between this request's read and its write.
    await updateOwnedSource(actor, sourceId, { message: 'Changed meanwhile' }, 1_700_000_000);
    const answer = await updateSourceSettings(actor, sourceId, { name: 'Mine' }, 1_700_000_001, read);
    expect(answer).toMatchObject({ name: 'Mine', message: 'Changed meanwhile' });
    expect(await getSource(sourceId)).toMatchObject({ name: 'Mine', message: 'Changed meanwhile' });
  });

  test("a source read with the token that is someone else's, or absent, answers 40001 and is not written", async () => {
    const [owner, other] = await Promise.all([makeOwner(), makeOwner()]);
    const actor = { tenantId: owner.user.tenantId, userId: owner.user.userId };
    const theirs = (await getSource(other.source.source_id))!;
    await expect(updateSourceSettings(actor, theirs.source_id, { name: 'Taken' }, 1_700_000_000, theirs)).rejects.toMatchObject({ reason: 'source_not_found' });
    await expect(updateSourceSettings(actor, 'snosuchsource', { name: 'Taken' }, 1_700_000_000, null)).rejects.toMatchObject({ reason: 'source_not_found' });
    expect((await getSource(other.source.source_id))!.name).toBe(theirs.name);
  });
});
