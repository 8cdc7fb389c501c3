/**
 * The feed cache on the synthesized template: API Gateway's stage cache serves the feed's GET and nothing
 * else, keyed so that a device's read (udid, kid), an unlock (code), a JWE read (Accept) and a revalidation
 * (If-None-Match) never get the entry a plain read without a UDID made. The `-c feedCacheSeconds` flag is read
 * from stack-template.test.ts's flag synths, which set it beside other flags.
 */
import { resourcePaths } from '../../infra/cdk/constructs/service-api';
import { routes, sourceFeedRoute } from '../../shared/routes';
import { sharedSynth, type SharedSynth } from '../support/shared-synth';
import { referencedId, type Synthesized } from '../support/synth';

let s: SharedSynth;
beforeAll(async () => {
  s = await sharedSynth();
});

interface MethodSetting {
  HttpMethod: string;
  ResourcePath: string;
  CachingEnabled?: boolean;
  CacheTtlInSeconds?: number;
  CacheDataEncrypted?: boolean;
}

const stageOf = (t: Pick<Synthesized, 'json' | 'template'>) => Object.values(t.template.findResources('AWS::ApiGateway::Stage'))[0]!.Properties as Record<string, unknown>;
const settingsOf = (t: Pick<Synthesized, 'json' | 'template'>) => stageOf(t).MethodSettings as MethodSetting[];
const feedPath = `/${sourceFeedRoute.path.replace(/\//g, '~1')}`;

function resourcePath(t: Pick<Synthesized, 'json' | 'template'>, resourceId: unknown): string {
  const id = referencedId(resourceId);
  if (!id || t.json.Resources[id]?.Type !== 'AWS::ApiGateway::Resource') return '';
  const props = t.json.Resources[id]!.Properties!;
  return `${resourcePath(t, props.ParentId)}/${String(props.PathPart)}`;
}

const methodsOf = (t: Pick<Synthesized, 'json' | 'template'>) =>
  Object.values(t.template.findResources('AWS::ApiGateway::Method')).map((m) => ({
    path: resourcePath(t, m.Properties.ResourceId),
    method: m.Properties.HttpMethod as string,
    props: m.Properties as { RequestParameters?: Record<string, boolean>; Integration: { CacheKeyParameters?: string[]; Uri: unknown } },
  }));

/** Whatever can change the answer is in the key: a UDID, a device key, a code, Accept or an ETag never gets another reader's answer. */
const FEED_KEY = [
  'method.request.path.source_id',
  ...['Host', 'Accept', 'If-None-Match'].map((header) => `method.request.header.${header}`),
  ...['udid', 'dk', 'kid', 'code'].map((query) => `method.request.querystring.${query}`),
];

describe('the feed cache (API Gateway stage cache)', () => {
  test('the stage has a 0.5 GB cache whose data is encrypted, off by default on every method', () => {
    expect(stageOf(s)).toMatchObject({ CacheClusterEnabled: true, CacheClusterSize: '0.5' });
    expect(settingsOf(s)).toContainEqual(expect.objectContaining({ HttpMethod: '*', ResourcePath: '/*', CachingEnabled: false }));
  });

  test("only the feed's GET is cached, for 60 s by default; every other method says caching is off", () => {
    const cached = settingsOf(s).filter((m) => m.CachingEnabled === true);
    expect(cached).toEqual([expect.objectContaining({ HttpMethod: 'GET', ResourcePath: feedPath, CacheTtlInSeconds: 60, CacheDataEncrypted: true })]);
    const methodCount = routes.reduce((n, r) => n + r.methods.length * resourcePaths(r).length, 0);
    expect(settingsOf(s).filter((m) => m.CachingEnabled === false)).toHaveLength(methodCount); // the stage-wide one and every method but the feed GET
  });

  test("the feed GET's cache key holds the source, host, form, revalidation, device and unlock parameters", () => {
    const get = methodsOf(s).find((m) => m.path === sourceFeedRoute.path && m.method === 'GET')!;
    expect([...(get.props.Integration.CacheKeyParameters ?? [])].sort()).toEqual([...FEED_KEY].sort());
    // Declared on the method (API Gateway only uses declared parameters), optional except the path's.
    expect(get.props.RequestParameters).toEqual(Object.fromEntries(FEED_KEY.map((p) => [p, p === 'method.request.path.source_id'])));
    // The same function behind it.
    const post = methodsOf(s).find((m) => m.path === sourceFeedRoute.path && m.method === 'POST')!;
    expect(referencedId(get.props.Integration.Uri)).toBe(referencedId(post.props.Integration.Uri));
  });

  test('no other method has a cache key (reports, unlocks by POST, the gate, management)', () => {
    const keyed = methodsOf(s).filter((m) => m.props.Integration.CacheKeyParameters !== undefined);
    expect(keyed.map((m) => `${m.method} ${m.path}`)).toEqual([`GET ${sourceFeedRoute.path}`]);
  });
});
