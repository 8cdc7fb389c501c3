import * as zm from 'zod/mini';
import { nowSeconds } from '../../../shared/clock';
import { getSource, withSourceKeys } from '../../../shared/db/repositories/source-repository';
import { createApp, createSource } from '../../../shared/domain/sources/source-admin';
import { sourceUrl } from '../../../shared/records/source';
import { FEED_JWE } from '../../../shared/domain/sources/feed-jwe';
import { appFieldsShape, isLaterOs } from '../../../shared/validation/app-fields';
import { CliError, flagText, parseFlags, type Command } from '../cli-types';

/** `app create` flags → the app fields the API takes; the same schemas validate both. */
const APP_FLAGS = {
  name: 'name',
  version: 'version',
  'download-url': 'download_url',
  'bundle-id': 'bundle_identifier',
  'developer-name': 'developer_name',
  'icon-url': 'icon_url',
  size: 'size',
  description: 'description',
  'version-description': 'version_description',
  'tint-color': 'tint_color',
  type: 'type',
  lock: 'lock',
  'min-os-version': 'min_os_version',
  'max-os-version': 'max_os_version',
  screenshots: 'screenshots',
  'app-permissions': 'app_permissions',
} as const satisfies Record<string, keyof typeof appFieldsShape>;

const appSchema = zm.object(appFieldsShape);

export const sourceCommands: Record<string, Command> = {
  'source create': async (flags) => {
    const f = parseFlags(flags, { user: flagText(), name: zm.optional(flagText(100)) });
    const source = await createSource({ userId: f.user, name: f.name }, nowSeconds());
    return { source_id: source.source_id, source_url: sourceUrl(source.source_id) };
  },
  /** The key a reseller builds into their own client to read the feed as a JWE. */
  'source key': async (flags) => {
    const f = parseFlags(flags, { source: flagText() });
    const source = await getSource(f.source);
    if (!source) throw new CliError(`unknown source ${f.source}`);
    const keyed = await withSourceKeys(source);
    return { source_id: keyed.source_id, alg: FEED_JWE.alg, enc: FEED_JWE.enc, key: keyed.feed_key };
  },
  'app create': async (flags) => {
    const f: Record<string, string | undefined> = parseFlags(flags, {
      source: flagText(),
      ...Object.fromEntries(Object.keys(APP_FLAGS).map((flag) => [flag, ['name', 'version', 'download-url'].includes(flag) ? flagText(4000) : zm.optional(flagText(4000))])),
    });
    const input = Object.fromEntries(Object.entries(APP_FLAGS).filter(([flag]) => f[flag] !== undefined).map(([flag, field]) => [field, f[flag]]));
    const parsed = appSchema.safeParse(input);
    if (!parsed.success) {
      const byField = Object.fromEntries(Object.entries(APP_FLAGS).map(([flag, field]) => [field, flag]));
      const bad = [...new Set(parsed.error.issues.map((i) => `--${byField[String(i.path[0])] ?? String(i.path[0])}`))];
      throw new CliError(`invalid value: ${bad.join(', ')}`);
    }
    const { min_os_version: min, max_os_version: max } = parsed.data;
    if (min && max && isLaterOs(min, max)) throw new CliError('invalid value: --max-os-version (earlier than --min-os-version)');
    const metadata = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
    const app = await createApp(f.source!, metadata, nowSeconds());
    return { id: app.id, publish_status: app.publish_status };
  },
};
