import { startTestApi, type TestApi } from '../support/api';
import { makeDraft, makeOwner, newUdid } from '../support/fixtures';
import { importDevice } from '../../shared/domain/devices/device-import';
import { createUser } from '../../shared/domain/users/user-service';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const NOW = 1_700_000_000;

interface Feed {
  apps: Array<{ id: number; name: string; downloadURL?: string }>;
}

async function publishedSource() {
  const owner = await makeOwner();
  const draft = await makeDraft(owner.source.source_id, { name: 'Game', version: '1.0' });
  const res = await api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/apps/${draft.id}/publish`, { headers: owner.bearer });
  expect(res.body.code).toBe(1);
  return owner;
}

const feed = async (sourceId: string, query = '') => {
  const res = await api.request('GET', `/api/rjy/${sourceId}/appstore${query}`);
  expect(res.status).toBe(200);
  return res.body as unknown as Feed;
};

describe('source feed and disabled devices', () => {
  test("a device its owner disabled gets no download URLs; enabled, unknown and other users' devices do", async () => {
    const owner = await publishedSource();
    const sourceId = owner.source.source_id;
    const device = await importDevice({ userId: owner.user.userId, udid: newUdid() }, NOW);
    const url = 'https://downloads.example.com/fixture.ipa';

    expect((await feed(sourceId)).apps[0]?.downloadURL).toBe(url);
    expect((await feed(sourceId, `?udid=${device.udid}`)).apps[0]?.downloadURL).toBe(url);

    const off = await api.request('GET', `/api/device/status?token=${owner.token}&kid=${device.kid}&action=disable`);
    expect(off.body.code).toBe(1);
    for (const query of [`?udid=${device.udid}`, `?udid=${device.udid.toUpperCase()}`, `?kid=${device.kid}`, `?kid=${device.kid}&udid=${device.udid}`]) {
      const apps = (await feed(sourceId, query)).apps;
      expect(apps).toEqual([{ id: expect.any(Number), name: 'Game', version: '1.0' }]);
      expect(JSON.stringify(apps)).not.toContain('downloads.example.com');
    }
    // without a device, or for a device that is not this owner's, the feed is whole
    expect((await feed(sourceId)).apps[0]?.downloadURL).toBe(url);
    expect((await feed(sourceId, `?udid=${newUdid()}`)).apps[0]?.downloadURL).toBe(url);
    const stranger = await createUser({ tenantId: 'default' }, NOW);
    const strangerDevice = await importDevice({ userId: stranger.user.userId, udid: device.udid }, NOW);
    expect((await feed(sourceId, `?kid=${strangerDevice.kid}`)).apps[0]?.downloadURL).toBe(url);

    await api.request('GET', `/api/device/status?token=${owner.token}&kid=${device.kid}&action=enable`);
    expect((await feed(sourceId, `?udid=${device.udid}`)).apps[0]?.downloadURL).toBe(url);
  });

  test('a UDID with several certificates is withheld while any of them is disabled; a kid decides alone', async () => {
    const owner = await publishedSource();
    const udid = newUdid();
    const older = await importDevice({ userId: owner.user.userId, udid }, NOW);
    const newer = await importDevice({ userId: owner.user.userId, udid }, NOW + 1);
    await api.request('GET', `/api/device/status?token=${owner.token}&kid=${older.kid}&action=disable`);
    expect((await feed(owner.source.source_id, `?udid=${udid}`)).apps[0]?.downloadURL).toBeUndefined();
    expect((await feed(owner.source.source_id, `?kid=${newer.kid}`)).apps[0]?.downloadURL).toBeDefined();
    expect((await feed(owner.source.source_id, `?kid=${older.kid}`)).apps[0]?.downloadURL).toBeUndefined();
  });

  test('an overlong udid is refused with a clear, localized error', async () => {
    const owner = await publishedSource();
    const res = await api.request('GET', `/api/rjy/${owner.source.source_id}/appstore?udid=${'f'.repeat(200)}`, { headers: { 'X-Lang': 'en' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 40002, msg: 'kid and udid must be text of at most 128 characters: udid', data: { error: 'device_selector_invalid', fields: ['udid'] } });
  });
});
