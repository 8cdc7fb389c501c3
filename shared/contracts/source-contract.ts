/** What the source management routes take and answer, for the OpenAPI document. */
import * as z from 'zod/mini';
import { describe } from './describe';
import { DEVICE_PROOF } from '../records/source';

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
  max_os_version: describe(z.string(), 'The newest iOS the build runs on, or empty'),
  screenshots: describe(
    z.object({
      iphone: z.array(z.object({ url: z.string(), width: z.optional(z.number()), height: z.optional(z.number()) })),
      ipad: z.array(z.object({ url: z.string(), width: z.number(), height: z.number() })),
    }),
    'Per device class, in display order; sizes in pixels (iPad screenshots always have one)',
  ),
  app_permissions: describe(
    z.object({ entitlements: z.array(z.string()), privacy: z.record(z.string(), z.string()) }),
    'Entitlement names, and privacy keys (NS…UsageDescription) with their usage text',
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
  next: describe(z.string(), 'Cursor of the next page; empty at the end'),
});

export const blocklistRequest = z.object({
  limit: describe(z.optional(z.string()), 'Entries per page (blocked and monitored together), 1–100 (default 20)'),
  cursor: describe(z.optional(z.string().check(z.maxLength(512))), 'data.next of the previous page (opaque)'),
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

const screenshotInput = z.union([
  describe(z.string(), 'Absolute http(s) URL'),
  z.object({ image_url: z.string(), width: describe(z.optional(z.number()), '1–32767 pixels; with height'), height: z.optional(z.number()) }),
]);

/** How the richer source format's app fields are written (documentation of what the field rules accept). */
export const appFormatFieldDocs = {
  max_os_version: describe(z.optional(z.string()), 'The newest iOS the build runs on (14, 15.4, 16.4.1), or empty; not before min_os_version'),
  screenshots: describe(
    z.optional(z.union([z.object({ iphone: z.optional(z.array(screenshotInput)), ipad: z.optional(z.array(screenshotInput)) }), z.array(screenshotInput), z.string()])),
    'JSON (or JSON text): {"iphone": [URL or {image_url, width, height}], "ipad": [{image_url, width, height}]}; a plain list means iPhone; at most 10 per class; iPad entries need their size; {} clears',
  ),
  app_permissions: describe(
    z.optional(z.union([z.object({ entitlements: z.optional(z.array(z.string())), privacy: z.optional(z.record(z.string(), z.string())) }), z.string()])),
    'JSON (or JSON text): {"entitlements": ["com.apple.developer…"], "privacy": {"NSCameraUsageDescription": "Why"}}: at most 50 of each; every privacy key needs a usage text (1–500 characters); {} clears',
  ),
};

/** How the richer source format's source settings are written. */
/** The presentation settings and device proof as the source's read answers them (stored value, '' or [] when unset). */
export const sourcePresentationData = {
  subtitle: describe(z.string(), 'Empty when unset'),
  description: describe(z.string(), 'Empty when unset (the feed then shows the announcement)'),
  header_url: describe(z.string(), 'Empty when unset'),
  website: describe(z.string(), 'Empty when unset'),
  tint_color: describe(z.string(), 'Six hex digits, or empty'),
  featured_apps: describe(z.array(z.string()), 'Bundle identifiers the feed features, in order'),
  device_proof: describe(z.enum(DEVICE_PROOF), 'required: only a reader with a valid device key gets the catalogue'),
};

export const sourceFormatFieldDocs = {
  subtitle: describe(z.optional(z.string()), 'Up to 200 characters; empty clears'),
  description: describe(z.optional(z.string()), 'Up to 4000 characters, line breaks allowed; the feed shows it instead of the announcement as the source description; empty clears'),
  header_url: describe(z.optional(z.string()), 'Absolute http(s) URL of the header image, or empty'),
  website: describe(z.optional(z.string()), 'Absolute http(s) URL, or empty'),
  tint_color: describe(z.optional(z.string()), 'Six hex digits (a leading # is dropped), or empty'),
  featured_apps: describe(
    z.optional(z.union([z.array(z.string()), z.string()])),
    'JSON list (or JSON text) of up to 20 bundle identifiers of the source; the feed features those it lists; [] clears',
  ),
};
