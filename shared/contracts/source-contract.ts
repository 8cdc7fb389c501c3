/** What the source management routes take and answer, for the OpenAPI document. */
import * as z from 'zod/mini';
import { describe } from './describe';

export const sourceSettingsData = z.object({
  source_id: z.string(),
  name: z.string(),
  source_url: describe(z.string(), '/api/rjy/<source_id>/appstore'),
  message: z.string(),
  encrypt_enabled: z.union([z.literal(0), z.literal(1)]),
  app_count: z.number(),
});

export const publishedAppData = z.object({
  id: z.number(),
  source_id: z.string(),
  name: z.string(),
  version: z.string(),
  download_url: z.string(),
  status: z.number(),
  publish_status: z.string(),
});

/** The path's own parameters may be repeated in the query or body; they must then match the path. */
export const publishRequest = z.object({
  source_id: describe(z.optional(z.string()), 'Must match the path when given'),
  app_id: describe(z.optional(z.union([z.number(), z.string()])), 'Must match the path when given'),
});

/** An app as the app management routes show it: the publish view plus the client metadata. */
export const appDetailData = z.object({
  ...publishedAppData.shape,
  bundle_identifier: z.string(),
  developer_name: z.string(),
  description: z.string(),
  icon_url: z.string(),
  size: describe(z.nullable(z.number()), 'Bytes; null until given or looked up at publish'),
  version_description: z.string(),
  tint_color: describe(z.string(), 'Six hex digits, or empty'),
  type: describe(z.union([z.literal(0), z.literal(1)]), '0 app, 1 game'),
  lock: describe(z.union([z.literal(0), z.literal(1)]), '1: downloads only for devices that unlocked the source'),
  min_os_version: z.string(),
  inspection: describe(
    z.object({
      state: describe(z.enum(['none', 'pending', 'ok', 'failed']), 'none: no download URL read yet; pending: the background job reads the file; failed: see error'),
      error: z.optional(describe(z.enum(['invalid', 'too_large', 'unreachable', 'timeout']), 'Why the file could not be used (failed only)')),
      status: z.optional(describe(z.number(), 'HTTP status the origin answered (unreachable only)')),
      requested_at: z.optional(z.number()),
      inspected_at: z.optional(z.number()),
      sha256: z.optional(z.string()),
      size: z.optional(describe(z.number(), 'Exact bytes of the downloaded file')),
      bundle_identifier: z.optional(describe(z.string(), 'CFBundleIdentifier')),
      version: z.optional(describe(z.string(), 'CFBundleShortVersionString')),
      build_version: z.optional(describe(z.string(), 'CFBundleVersion')),
      min_os_version: z.optional(describe(z.string(), 'MinimumOSVersion')),
      display_name: z.optional(z.string()),
      entitlements: z.optional(describe(z.array(z.string()), "Entitlement keys of the main executable's code signature, all architectures")),
      privacy: z.optional(describe(z.record(z.string(), z.string()), 'Every NS…UsageDescription key of Info.plist with its text')),
    }),
    "What reading the IPA at download_url found (publishing needs state ok and the IPA's bundle identifier and version to match the app's)",
  ),
});

/** The source feed document (the keys every client family needs; clients ignore the others). */
export const feedDocument = z.object({
  name: z.string(),
  identifier: z.string(),
  sourceURL: describe(z.string(), 'Absolute URL of this feed'),
  apps: z.array(
    z.object({
      name: z.string(),
      bundleIdentifier: z.string(),
      developerName: z.string(),
      iconURL: z.string(),
      downloadURL: describe(z.string(), 'The newest version: the origin URL, or a download gate link'),
      lock: z.union([z.literal('0'), z.literal('1')]),
      versions: z.array(z.object({ version: z.string(), date: z.string(), downloadURL: z.string(), size: z.number() })),
    }),
  ),
});

const udidText = describe(z.string(), 'Upper-case UDID');
const unixSeconds = (what: string) => describe(z.number(), `${what}, Unix seconds`);
const unixSecondsOrNull = (what: string) => describe(z.nullable(z.number()), `${what}, Unix seconds; null until the code is used`);

/** A new batch of unlock codes. */
export const createdUnlockCodesData = z.object({
  codes: z.array(z.object({ code: z.string(), days: z.number() })),
});

/** Every unlock code of a source and who used it. */
export const unlockCodesData = z.object({
  codes: z.array(
    z.object({
      code: z.string(),
      days: z.number(),
      state: z.union([z.literal('unused'), z.literal('used')]),
      udid: describe(z.nullable(z.string()), 'The UDID that used the code; null while unused'),
      used_at: unixSecondsOrNull('When it was used'),
      ends_at: unixSecondsOrNull('When the unlock it gave ends'),
    }),
  ),
});

export const blockEntryData = z.object({
  udid: udidText,
  reason: z.union([z.literal('adder'), z.literal('cracker'), z.literal('manual')]),
  added_at: unixSeconds('When it was blocked'),
});

/** A source's block list and misuse monitor. */
export const blocklistData = z.object({
  blocked: z.array(blockEntryData),
  monitored: z.array(
    z.object({
      udid: udidText,
      role: z.union([z.literal('adder'), z.literal('cracker')]),
      count: z.number(),
      first_seen: unixSeconds('First report'),
      last_seen: unixSeconds('Latest report'),
    }),
  ),
});

export const unblockedData = z.object({
  udid: udidText,
  blocked: z.literal(false),
  was_blocked: describe(z.boolean(), 'Whether the UDID was on the block list'),
});

/** A successful unlock with a code. */
export const unlockData = z.object({
  udid: udidText,
  code: z.string(),
  days: z.number(),
  ends_at: unixSeconds('When the unlock ends'),
});

/** What a misuse report did. */
export const reportData = z.object({
  blocked: describe(z.array(z.string()), 'UDIDs the report blocked (open_black / open_black2)'),
  monitored: describe(z.array(z.string()), 'UDIDs it counted in the monitor'),
});
