import { admin } from '../support/admin-cli';
import { useIsolatedTables } from '../support/tables';
import { getSource } from '../../shared/db/repositories/source-repository';
import { getApp } from '../../shared/db/repositories/app-repository';
import { findTokenOwner } from '../../shared/db/repositories/user-repository';
import { hashToken } from '../../shared/domain/users/tokens';

beforeAll(() => useIsolatedTables());

describe('operator CLI', () => {
  test('creates a tenant, a user with a token, a source and a draft', async () => {
    const tenant = await admin('tenant', 'create', '--name', 'Shop', '--domain', 'Shop.Example.com', '--lang', 'en');
    expect(tenant.code).toBe(0);
    expect(tenant.json.tenant_id).toMatch(/^t_/);
    const user = await admin('user', 'create', '--tenant', String(tenant.json.tenant_id), '--name', 'alice', '--balance', '500');
    expect(user.code).toBe(0);
    expect(user.json).toMatchObject({ tenant_id: tenant.json.tenant_id });
    const token = String(user.json.token);
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(32);
    // Only the hash is stored.
    expect((await findTokenOwner(hashToken(token)))?.userId).toBe(user.json.user_id);
    const source = await admin('source', 'create', '--user', String(user.json.user_id), '--name', 'Feed');
    expect(source.json.source_url).toBe(`/api/rjy/${source.json.source_id}/appstore`);
    expect((await getSource(String(source.json.source_id)))?.encrypt_enabled).toBe(1);
    const app = await admin('app', 'create', '--source', String(source.json.source_id), '--name', 'A', '--version', '1', '--download-url', 'https://x.example/a.ipa');
    expect(app.json).toEqual({ id: 1, publish_status: 'draft' });
    expect((await getApp(String(source.json.source_id), 1))?.name).toBe('A');
  });

  test('app create takes every metadata flag, validated like the API; source key shows the JWE key', async () => {
    const user = await admin('user', 'create');
    const source = await admin('source', 'create', '--user', String(user.json.user_id));
    const sourceId = String(source.json.source_id);
    const app = await admin(
      'app', 'create', '--source', sourceId, '--name', 'Full', '--version', '2.0', '--download-url', 'https://x.example/f.ipa',
      '--bundle-id', 'com.example.full', '--developer-name', 'Dev', '--icon-url', 'https://x.example/f.png', '--size', '123',
      '--description', 'About', '--version-description', 'Notes', '--tint-color', '#112233', '--type', '1', '--lock', '1', '--min-os-version', '15.0',
    );
    expect(app.code).toBe(0);
    expect(await getApp(sourceId, Number(app.json.id))).toMatchObject({
      bundle_identifier: 'com.example.full', developer_name: 'Dev', icon_url: 'https://x.example/f.png', size: 123, description: 'About',
      version_description: 'Notes', tint_color: '112233', type: 1, lock: 1, min_os_version: '15.0',
    });
    const bad = await admin('app', 'create', '--source', sourceId, '--name', 'Bad', '--version', '1', '--download-url', 'https://x.example/b.ipa', '--bundle-id', 'nodots', '--size', '-1');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--bundle-id, --size/);
    const key = await admin('source', 'key', '--source', sourceId);
    expect(key.json).toEqual({ source_id: sourceId, alg: 'dir', enc: 'A256GCM', key: expect.stringMatching(/^[\w-]{43}$/) });
    expect(Buffer.from(String(key.json.key), 'base64url')).toHaveLength(32);
    expect((await admin('source', 'key', '--source', sourceId)).json.key).toBe(key.json.key);
  });

  test('tenant set --link-ttl-seconds sets the download links lifetime within 60–86400', async () => {
    const set = await admin('tenant', 'set', '--link-ttl-seconds', '900');
    expect(set.json).toMatchObject({ tenant_id: 'default', link_ttl_seconds: 900 });
    for (const bad of ['59', '86401', 'soon']) expect((await admin('tenant', 'set', '--link-ttl-seconds', bad)).stderr).toMatch(/--link-ttl-seconds/);
    await admin('tenant', 'set', '--link-ttl-seconds', '3600');
  });

  test('shows, credits, rotates and expires', async () => {
    const user = await admin('user', 'create', '--balance', '100');
    const id = String(user.json.user_id);
    expect((await admin('user', 'show', '--user', id)).json).toEqual({ user_id: id, tenant_id: 'default', balance: 100, subscription: null });
    expect((await admin('user', 'credit', '--user', id, '--amount', '250')).json).toEqual({ user_id: id, tenant_id: 'default', balance: 350 });
    const rotated = await admin('token', 'rotate', '--user', id);
    expect(rotated.json.token).not.toBe(user.json.token);
    expect(await findTokenOwner(hashToken(String(user.json.token)))).toBeUndefined();
    const expired = await admin('token', 'expire', '--user', id);
    expect(expired.json).toMatchObject({ user_id: id });
    expect(typeof expired.json.expires_at).toBe('number');
  });

  test.each([
    [['user', 'credit', '--user', 'u_x', '--amount', 'ten'], /--amount/],
    [['user', 'credit', '--amount', '5'], /--user/],
    [['user', 'show', '--user', 'u_nobody'], /unknown user u_nobody/],
    [['source', 'create', '--user', 'u_nobody'], /unknown user/],
    [['app', 'create', '--source', 'snope', '--name', 'A', '--version', '1', '--download-url', 'https://x'], /unknown source snope/],
    [['tenant', 'create', '--name', 'X', '--lang', 'fr'], /--lang/],
    [['user', 'create', '--tenant', 't_nope'], /unknown tenant/],
    [['user', 'create', '--colour', 'red'], /unknown flag/],
    [['frobnicate', 'now'], /Unknown command/],
  ])('%j fails with a message on stderr and nothing on stdout', async (argv, message) => {
    const result = await admin(...argv);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });

  test('a domain already mapped to a tenant is refused', async () => {
    await admin('tenant', 'create', '--name', 'A', '--domain', 'dup.example.com');
    const second = await admin('tenant', 'create', '--name', 'B', '--domain', 'DUP.example.com');
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/already belongs/);
  });
});
