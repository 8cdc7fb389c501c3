/**
 * Agents' storefronts through the API on DynamoDB Local: set by the agent and by its parent, read back,
 * refused field by field in the caller's language (nothing written), isolated (a sibling, a grandparent, a
 * child or a reseller of the operator cannot read or change it), and shown on the pages, the UDID profiles
 * and the feeds — never with anything of the parent's (its name, id, contact, logo or the site's name).
 */
import { createSource } from '../../shared/domain/sources/source-admin';
import { useTxtResolver } from '../../shared/domain/agents/domain-proof';
import { getUser } from '../../shared/db/repositories/user-repository';
import { admin } from '../support/admin-cli';
import { startTestbed, type Testbed } from '../support/add-device-testbed';
import type { ApiResponse } from '../support/api';
import { call, chainShop, createAgent, type Chain, type Member } from './agent-support';

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
});
afterAll(async () => {
  useTxtResolver(undefined);
  await bed.close();
});

const NORTH = {
  name: 'North Star Apps',
  logo_url: 'https://cdn.north.example/logo.png',
  primary_color: '#0B5FFF',
  header_color: '#102a43',
  notice: 'Open 9–21 every day',
  contact: 'tg: @northstar',
  buy_url: 'https://t.me/northstar',
};

interface Shop {
  c: Chain;
  a1: Member;
  a2: Member;
  sibling: Member;
}

async function shop(): Promise<Shop> {
  const c = await chainShop(bed, 10_000);
  const a1 = await createAgent(bed, c, c.reseller, undefined, 'Parent Wholesale Ltd');
  const a2 = await createAgent(bed, c, a1, undefined, 'north-internal');
  const sibling = await createAgent(bed, c, a1, undefined, 'south-internal');
  return { c, a1, a2, sibling };
}

/** A page's (or profile's) text, a feed's JSON text. */
const textOf = (res: ApiResponse) => (typeof res.body.raw === 'string' ? res.body.raw : JSON.stringify(res.body));
const headersOf = (res: ApiResponse) => JSON.stringify([...res.headers.entries()]);

const storefront = (s: Shop, who: Member, body: Record<string, unknown>, lang = 'en') => call(bed, s.c, who, 'POST', '/api/user/agents', body, lang);
/** A page as a customer opens it, over https (as deployed: a return URL must be https off this machine). */
const page = (s: Shop, path: string, host = s.c.host, lang = 'en') => bed.api.request('GET', path, { headers: { Host: host, 'X-Lang': lang, 'X-Forwarded-Proto': 'https' } });

/** Nothing of the parent's on a storefront's page, profile or feed: its name, id, contact, nor the site's name. */
function expectNothingOfTheParent(text: string, s: Shop): void {
  for (const secret of ['Parent Wholesale Ltd', s.a1.userId, s.c.reseller.userId, 'Fixture tenant', s.c.tenantId, 'tg: @agent']) expect(text).not.toContain(secret);
}

test('an agent sets its own storefront and its parent reads and changes it; colours are stored as #rrggbb', async () => {
  const s = await shop();
  const set = await storefront(s, s.a2, { storefront: NORTH });
  expect(set.status).toBe(200);
  expect(set.body).toMatchObject({ code: 1, msg: 'Storefront saved', data: { ...NORTH, primary_color: '#0b5fff', agent_id: s.a2.userId, domain: '', domain_state: 'none' } });
  expect((set.body.data as { pages: { customer_page: string } }).pages.customer_page).toMatch(new RegExp(`/api/customer\\?store=${s.a2.userId}$`));

  // The parent sees it with agent_id, and changes one field: the others stay.
  expect((await storefront(s, s.a1, { agent_id: s.a2.userId, storefront: {} })).body).toMatchObject({ code: 1, data: { name: NORTH.name, contact: NORTH.contact } });
  const changed = await storefront(s, s.a1, { agent_id: s.a2.userId, storefront: { notice: 'Closed on Sunday', logo_url: '' } });
  expect(changed.body).toMatchObject({ code: 1, data: { name: NORTH.name, notice: 'Closed on Sunday', logo_url: '' } });
  // The agent reads its own (an empty object reads), form-encoded JSON text works too.
  expect((await storefront(s, s.a2, { storefront: '{}' })).body).toMatchObject({ code: 1, data: { notice: 'Closed on Sunday' } });
});

test('each bad field is refused with what it must be, in the caller\'s language, and nothing is written', async () => {
  const s = await shop();
  await storefront(s, s.a2, { storefront: NORTH });
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [{ logo_url: 'http://cdn.north.example/logo.png' }, 'logo_url', /https:\/\//],
    [{ logo_url: 'javascript:alert(1)' }, 'logo_url', /https:\/\//],
    [{ buy_url: 'ftp://north.example' }, 'buy_url', /https:\/\//],
    [{ primary_color: 'blue' }, 'primary_color', /#RRGGBB/],
    [{ header_color: '#12345' }, 'header_color', /#RRGGBB/],
    [{ primary_color: '#ffeb3b' }, 'primary_color', /too light.*1\.\d\d:1.*4\.5:1/],
    [{ name: 'x'.repeat(65) }, 'name', /64/],
    [{ notice: 'n'.repeat(501) }, 'notice', /500/],
    [{ contact: 'c'.repeat(201) }, 'contact', /200/],
    [{ domain: 'https://north.example' }, 'domain', /host name/],
    [{ domain: 'north.example:8443' }, 'domain', /host name/],
    [{ domain: '10.0.0.1' }, 'domain', /host name/],
    [{ domain: 'localhost' }, 'domain', /host name/],
    [{ verify_domain: 'maybe' }, 'verify_domain', /true or false/],
  ];
  for (const [change, field, message] of cases) {
    const res = await storefront(s, s.a2, { storefront: { name: 'Should not be written', ...change } });
    expect({ change, status: res.status, body: res.body }).toMatchObject({ change, status: 400, body: { code: 40002, msg: expect.stringMatching(message), data: { error: 'invalid_value', fields: [field] } } });
  }
  const unknown = await storefront(s, s.a2, { storefront: { slogan: 'hi' } });
  expect(unknown.body).toMatchObject({ code: 40002, data: { error: 'unknown_field', fields: ['slogan'] } });
  expect((await storefront(s, s.a2, { storefront: {} })).body).toMatchObject({ data: { name: NORTH.name, logo_url: NORTH.logo_url, primary_color: '#0b5fff' } });

  // Every language has its own words for it.
  const messages = new Set<string>();
  for (const lang of ['zh', 'en', 'zh-TW', 'vi', 'ar', 'es', 'ru']) {
    const res = await storefront(s, s.a2, { storefront: { primary_color: '#ffeb3b' } }, lang);
    expect(res.body).toMatchObject({ code: 40002, data: { error: 'invalid_value', fields: ['primary_color'] } });
    messages.add(res.body.msg as string);
  }
  expect(messages.size).toBe(7);
});

test('isolation: a sibling, a grandparent, a child and another tenant\'s agent get agent_not_found; a reseller of the operator has no storefront', async () => {
  const s = await shop();
  await storefront(s, s.a2, { storefront: NORTH });
  const notFound = { code: 40006, data: { error: 'agent_not_found' } };
  // The sibling, the grandparent (the reseller, two levels up), and a2 asking for its parent's.
  for (const [who, id] of [[s.sibling, s.a2.userId], [s.c.reseller, s.a2.userId], [s.a2, s.a1.userId], [s.a2, s.sibling.userId]] as const) {
    for (const body of [{ agent_id: id, storefront: {} }, { agent_id: id, storefront: { name: 'Taken over' } }]) {
      const res = await storefront(s, who, body);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject(notFound);
    }
  }
  const other = await shop();
  expect((await call(bed, other.c, other.a1, 'POST', '/api/user/agents', { agent_id: s.a2.userId, storefront: {} })).body).toMatchObject(notFound);
  expect((await storefront(s, s.c.reseller, { storefront: { name: 'Mine' } })).body).toMatchObject({ code: 40003, data: { error: 'storefront_not_agent' } });
  expect((await storefront(s, s.a2, { storefront: {} })).body).toMatchObject({ data: { name: NORTH.name } });
  // The agents list and an agent's details never carry a storefront's domain proof or the parent's data.
  expect(JSON.stringify((await storefront(s, s.a2, { storefront: {} })).body)).not.toContain(s.a1.userId);
});

test('the pages, the UDID profiles and the feed show the agent\'s brand in the customer\'s language, and nothing of the parent', async () => {
  const s = await shop();
  await storefront(s, s.a2, { storefront: NORTH });
  const source = await createSource({ userId: s.a2.userId, name: 'North catalogue' }, 1_700_000_000);

  const customer = await page(s, `/api/customer?store=${s.a2.userId}`, s.c.host, 'es');
  expect(customer.status).toBe(200);
  const html = textOf(customer);
  expect(html).toContain('<h1>North Star Apps</h1>');
  expect(html).toContain(`src="${NORTH.logo_url}"`);
  expect(html).toContain('--accent:#0b5fff');
  expect(html).toContain('Open 9–21 every day');
  expect(html).toContain('Contacto: <bdi>tg: @northstar</bdi>');
  expect(html).toContain(`id="store-buy" href="${NORTH.buy_url}" rel="noopener">Comprar</a>`);
  expect(html).toContain('lang="es"');
  // The profile link names the agent: the profile it answers carries the agent's name.
  const profileHref = /id="get-udid" href="([^"]+)"/.exec(html)![1]!.replace(/&#38;/g, '&');
  expect(profileHref).toContain(`user=${s.a2.userId}`);
  expectNothingOfTheParent(html, s);
  const profile = await page(s, profileHref.replace(/^https:\/\/[^/]+/, ''), s.c.host, 'es');
  expect(profile.status).toBe(200);
  expect(textOf(profile)).toContain('<key>PayloadDisplayName</key>\n  <string>North Star Apps</string>');
  expect(textOf(profile)).toContain('a North Star Apps');
  expectNothingOfTheParent(textOf(profile), s);

  const install = await page(s, `/api/rjy/${source.source_id}/install`, s.c.host, 'ar');
  expect(textOf(install)).toContain('<h1>North Star Apps</h1>');
  expect(textOf(install)).toContain('dir="rtl"');
  expectNothingOfTheParent(textOf(install), s);
  const sourceProfile = await page(s, `/api/rjy/${source.source_id}/udid.mobileconfig`);
  expect(textOf(sourceProfile)).toContain('<string>North Star Apps</string>');
  expect(textOf(sourceProfile)).toContain(`udid-capture.${s.a2.userId}`);
  expectNothingOfTheParent(textOf(sourceProfile), s);

  const feed = await page(s, `/api/rjy/${source.source_id}/appstore`);
  expect(feed.body).toMatchObject({ name: 'North catalogue', iconURL: NORTH.logo_url, tintColor: '0b5fff', website: NORTH.buy_url });
  expectNothingOfTheParent(textOf(feed), s);
  for (const res of [customer, install, profile, feed]) expectNothingOfTheParent(headersOf(res), s);

  // An agent without a storefront shows its own name, never its parent's; an id that is no agent is no shop.
  const bare = await page(s, `/api/customer?store=${s.sibling.userId}`);
  expect(textOf(bare)).toContain('<h1>south-internal</h1>');
  expectNothingOfTheParent(textOf(bare), s);
  for (const id of [s.c.reseller.userId, 'u_nobody', (await shop()).a2.userId]) {
    const res = await page(s, `/api/customer?store=${id}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-error')).toBe('store_not_found');
  }
});

test('a suspended agent keeps its brand without the buy link, and cannot change its storefront (its parent can)', async () => {
  const s = await shop();
  await storefront(s, s.a2, { storefront: NORTH });
  expect((await storefront(s, s.a1, { agent_id: s.a2.userId, suspended: true })).body).toMatchObject({ code: 1 });
  const html = textOf(await page(s, `/api/customer?store=${s.a2.userId}`));
  expect(html).toContain('<h1>North Star Apps</h1>');
  expect(html).toContain('not taking new orders');
  expect(html).not.toContain('id="store-buy"');
  expect((await storefront(s, s.a2, { storefront: { name: 'Still open' } })).body).toMatchObject({ code: 40003, data: { error: 'agent_account_suspended' } });
  expect((await storefront(s, s.a1, { agent_id: s.a2.userId, storefront: { notice: 'Back soon' } })).body).toMatchObject({ code: 1, data: { notice: 'Back soon' } });

  // Lifted, its Buy button is back; its parent suspended (its adds refused too), the page says so again.
  expect((await storefront(s, s.a1, { agent_id: s.a2.userId, suspended: false })).body).toMatchObject({ code: 1 });
  expect(textOf(await page(s, `/api/customer?store=${s.a2.userId}`))).toContain('id="store-buy"');
  expect((await storefront(s, s.c.reseller, { agent_id: s.a1.userId, suspended: true })).body).toMatchObject({ code: 1 });
  const under = textOf(await page(s, `/api/customer?store=${s.a2.userId}`));
  expect(under).toContain('id="store-paused"');
  expect(under).not.toContain('id="store-buy"');
});

test('an own domain: claimed pending with its TXT proof, verified by DNS, then the storefront is served on it alone', async () => {
  const s = await shop();
  const domain = `north-${Date.now().toString(36)}.example.net`;
  const claim = await storefront(s, s.a2, { storefront: { ...NORTH, domain: domain.toUpperCase() } });
  expect(claim.body).toMatchObject({ code: 1, data: { domain, domain_state: 'pending', domain_proof: { type: 'TXT', name: `_appsource-verify.${domain}` } } });
  const token = (claim.body.data as { domain_proof: { value: string } }).domain_proof.value;

  // Not yet in DNS: refused, saying what to publish.
  useTxtResolver(async () => [['something else']]);
  const early = await storefront(s, s.a2, { storefront: { verify_domain: true } });
  expect(early.body).toMatchObject({ code: 40003, data: { error: 'storefront_domain_unverified', domain_proof: { value: token } } });
  expect(early.body.msg).toContain(token);
  expect(textOf(await page(s, '/api/customer', domain))).not.toContain('North Star Apps');

  useTxtResolver(async (name) => (name === `_appsource-verify.${domain}` ? [[token.slice(0, 10), token.slice(10)]] : []));
  const verified = await storefront(s, s.a2, { storefront: { verify_domain: true } });
  expect(verified.body).toMatchObject({ code: 1, msg: `Domain verified: the storefront is served on ${domain}`, data: { domain_state: 'active', pages: { domain_page: `https://${domain}/api/customer` } } });

  // On its domain: the agent's page, its links on its own host, the parent's sources do not exist there.
  const onDomain = await page(s, '/api/customer', domain);
  expect(textOf(onDomain)).toContain('<h1>North Star Apps</h1>');
  expect(textOf(onDomain)).toContain(`://${domain}/api/udid/profile`);
  expectNothingOfTheParent(textOf(onDomain), s);
  expect(textOf(onDomain)).not.toContain(s.c.host);
  const parentSource = await createSource({ userId: s.a1.userId, name: 'Parent catalogue' }, 1_700_000_000);
  const own = await createSource({ userId: s.a2.userId, name: 'North catalogue' }, 1_700_000_000);
  expect((await page(s, `/api/rjy/${parentSource.source_id}/appstore`, domain)).status).toBe(404);
  expect((await page(s, `/api/rjy/${parentSource.source_id}/install`, domain)).status).toBe(404);
  const feed = await page(s, `/api/rjy/${own.source_id}/appstore`, domain);
  expect(feed.body).toMatchObject({ sourceURL: `https://${domain}/api/rjy/${own.source_id}/appstore` });

  // Nobody else can take it: a sibling's claim, and a site's host.
  expect((await storefront(s, s.sibling, { storefront: { domain } })).body).toMatchObject({ code: 40003, data: { error: 'storefront_domain_taken' } });
  expect((await storefront(s, s.sibling, { storefront: { domain: s.c.host } })).body).toMatchObject({ code: 40003, data: { error: 'storefront_domain_taken' } });

  // Releasing it ('' or another domain) stops serving it at once.
  expect((await storefront(s, s.a1, { agent_id: s.a2.userId, storefront: { domain: '' } })).body).toMatchObject({ code: 1, data: { domain: '', domain_state: 'none' } });
  expect(textOf(await page(s, '/api/customer', domain))).not.toContain('North Star Apps');
  expect((await getUser(s.a2.userId))?.name).toBe('north-internal');
});

test('the operator serves a claimed domain without its DNS proof (agent domain); a claim nobody made, or a taken host, is refused', async () => {
  const s = await shop();
  const domain = `south-${Date.now().toString(36)}.example.net`;
  expect(await admin('agent', 'domain', '--agent', s.sibling.userId)).toMatchObject({ code: 1, stderr: expect.stringContaining('claimed no domain') });
  await storefront(s, s.sibling, { storefront: { name: 'South Soft', domain } });
  expect(await admin('agent', 'domain', '--agent', s.sibling.userId)).toMatchObject({ code: 0, json: { agent_id: s.sibling.userId, domain, domain_state: 'active' } });
  expect(textOf(await page(s, '/api/customer', domain))).toContain('<h1>South Soft</h1>');
  // Another agent cannot claim the host once it serves.
  expect((await storefront(s, s.a2, { storefront: { domain } })).body).toMatchObject({ code: 40003, data: { error: 'storefront_domain_taken' } });
  expect(await admin('agent', 'domain', '--agent', s.c.reseller.userId)).toMatchObject({ code: 1, stderr: expect.stringContaining('is not an agent') });
});
