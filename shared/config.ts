/**
 * The one module that reads the environment (`test/architecture/` keeps `process.env` out of every other
 * deployed module). Every variable the functions read is named here with its default and its check, once:
 * infra/README.md ("Configuration") says what each one does.
 *
 * The environment is read and checked once, and again only when a variable changed since: tests and the local
 * runtime point the same modules at their own tables (or switch a cache off) by setting a variable, without
 * reloading anything. Comparing the raw values is a few string compares, cheap enough for every DynamoDB call.
 */

/** The variables, as the stack, the local runtime and the tests set them. */
const NAMES = [
  'DYNAMODB_ENDPOINT',
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'TABLE_PREFIX',
  'FETCH_ALLOW_PRIVATE',
  'IPA_INSPECTION',
  'OWNER_CACHE_SECONDS',
  'TENANT_CACHE_SECONDS',
  'DEFAULT_TENANT_API_KEY',
  'ACCOUNT_SECRETS_KEY_FILE',
  'ACCOUNT_SECRETS_KEY_ARN',
  'APPLE_API_BASE_URL',
  'POWERTOOLS_SERVICE_NAME',
] as const;

type Name = (typeof NAMES)[number];
type Raw = Record<Name, string | undefined>;

export interface Config {
  /** DynamoDB Local's URL (local runtime, tests); unset on AWS. */
  dynamoEndpoint: string | undefined;
  awsRegion: string;
  /** The credentials sent to DynamoDB Local, which accepts any; on AWS the default provider chain is used. */
  localCredentials: { accessKeyId: string; secretAccessKey: string };
  /** Prefix of the table names when no `TABLE_<KEY>` names a deployed table. */
  tablePrefix: string;
  /** User-given URLs may resolve to loopback and private addresses (local runtime and tests only). */
  fetchAllowPrivate: boolean;
  /** Publishing reads the IPA (unless `IPA_INSPECTION=off`). */
  ipaInspection: boolean;
  /** How long a container keeps a source owner's subscription end; 0 turns the cache off. */
  ownerCacheSeconds: number;
  /** How long a container keeps the tenant of a host; 0 turns the cache off. */
  tenantCacheSeconds: number;
  /** The usage-plan key of the default tenant, handed to the authorizer by the stack. */
  defaultTenantApiKey: string | undefined;
  /** Locally, the file whose key wraps the account secrets' data keys. */
  accountSecretsKeyFile: string;
  /** Deployed, the KMS key that wraps them. */
  accountSecretsKeyArn: string | undefined;
  /** Where accounts a reseller connects with an API key talk to App Store Connect: Apple's, or the local simulator. */
  appleApiBaseUrl: string;
  serviceName: string;
}

export const DEFAULT_TENANT_CACHE_SECONDS = 30;
export const DEFAULT_OWNER_CACHE_SECONDS = 60;

/** An empty variable counts as unset. */
const given = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);

/** A number of seconds, 0 or more; anything else (unset, not a number, negative) is the default. */
function seconds(value: string | undefined, fallback: number): number {
  const parsed = given(value) === undefined ? Number.NaN : Number(value);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback;
}

function url(name: Name, value: string | undefined): string | undefined {
  const set = given(value);
  if (set !== undefined && !URL.canParse(set)) throw new Error(`${name} is not a URL: ${set}`);
  return set;
}

function parse(raw: Raw): Config {
  return {
    dynamoEndpoint: url('DYNAMODB_ENDPOINT', raw.DYNAMODB_ENDPOINT),
    awsRegion: given(raw.AWS_REGION) ?? given(raw.AWS_DEFAULT_REGION) ?? 'us-east-1',
    localCredentials: { accessKeyId: raw.AWS_ACCESS_KEY_ID ?? 'local', secretAccessKey: raw.AWS_SECRET_ACCESS_KEY ?? 'local' },
    tablePrefix: raw.TABLE_PREFIX ?? 'appsrc-',
    fetchAllowPrivate: raw.FETCH_ALLOW_PRIVATE === '1',
    ipaInspection: raw.IPA_INSPECTION !== 'off',
    // Unlike the tenant cache's, an empty value here is a number (0: off), as it always was.
    ownerCacheSeconds: raw.OWNER_CACHE_SECONDS === undefined ? DEFAULT_OWNER_CACHE_SECONDS : seconds(raw.OWNER_CACHE_SECONDS === '' ? '0' : raw.OWNER_CACHE_SECONDS, DEFAULT_OWNER_CACHE_SECONDS),
    tenantCacheSeconds: seconds(raw.TENANT_CACHE_SECONDS, DEFAULT_TENANT_CACHE_SECONDS),
    defaultTenantApiKey: given(raw.DEFAULT_TENANT_API_KEY),
    accountSecretsKeyFile: given(raw.ACCOUNT_SECRETS_KEY_FILE) ?? '.local/account-secrets.key',
    accountSecretsKeyArn: given(raw.ACCOUNT_SECRETS_KEY_ARN),
    appleApiBaseUrl: url('APPLE_API_BASE_URL', raw.APPLE_API_BASE_URL) ?? 'https://api.appstoreconnect.apple.com',
    serviceName: raw.POWERTOOLS_SERVICE_NAME ?? 'appsource',
  };
}

let last: { values: (string | undefined)[]; config: Config } | undefined;

/** The configuration, read and checked when first asked for and whenever a variable changed since. */
export function config(): Config {
  const values = NAMES.map((name) => process.env[name]);
  if (last && values.every((value, i) => value === last?.values[i])) return last.config;
  const raw = Object.fromEntries(NAMES.map((name, i) => [name, values[i]])) as Raw;
  last = { values, config: parse(raw) };
  return last.config;
}

/** How long an add waits on App Store Connect (shared/domain/add-device/issue-on-account.ts). */
export interface AppleAddWaits {
  /** For each answer, before taking it as lost: short enough that one slow account leaves time for the next. */
  waitMs: number;
  /** After a lost registration answer, before looking the UDID up a second time (Apple may still be at it). */
  recheckMs: number;
}

/** Production's: a deployed function and `npm start` never set the variables; only tests shorten them. */
export const DEFAULT_APPLE_ADD_WAITS: AppleAddWaits = { waitMs: 8_000, recheckMs: 3_000 };

/** Whole milliseconds of at least `min`; unset is the default, anything else stops the add. */
function milliseconds(name: string, fallback: number, min: number): number {
  const set = given(process.env[name]);
  const parsed = set === undefined ? fallback : Number(set);
  if (!Number.isInteger(parsed) || parsed < min) throw new Error(`${name} is not a whole number of milliseconds >= ${min}: ${set}`);
  return parsed;
}

let lastWaits: { values: string; waits: AppleAddWaits } | undefined;

/**
 * The add's waits: `APPLE_ADD_WAIT_MS` (≥ 1) and `APPLE_ADD_RECHECK_MS` (≥ 0), read as `config()` reads the
 * rest (once, and again when they changed). Apart from `config()` so that only the functions that add carry
 * them: every function carries `config()`, and the lightest are held to a byte budget.
 */
export function appleAddWaits(): AppleAddWaits {
  const values = `${process.env.APPLE_ADD_WAIT_MS}|${process.env.APPLE_ADD_RECHECK_MS}`;
  if (lastWaits?.values === values) return lastWaits.waits;
  const waits = { waitMs: milliseconds('APPLE_ADD_WAIT_MS', DEFAULT_APPLE_ADD_WAITS.waitMs, 1), recheckMs: milliseconds('APPLE_ADD_RECHECK_MS', DEFAULT_APPLE_ADD_WAITS.recheckMs, 0) };
  lastWaits = { values, waits };
  return waits;
}

/** The deployed name of one table, from the `TABLE_<KEY>` the stack sets (db/table-names.ts names them). */
export function deployedTableName(variable: string): string | undefined {
  return given(process.env[variable]);
}

/**
 * Off AWS nobody collects embedded metric lines, so the local runtime and the operator CLI switch Powertools
 * Metrics off, unless the variable says otherwise; Powertools reads it itself when its metrics module loads.
 */
export function switchMetricsOffUnlessSet(): void {
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
}
