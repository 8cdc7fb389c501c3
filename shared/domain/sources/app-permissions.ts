/**
 * The `appPermissions` a release shows in the feed. AltStore and SideStore refuse to install an IPA that uses
 * an entitlement or a privacy permission the source does not declare, and refuse a source whose privacy
 * permission has no usage description. So: what the IPA uses always wins; the reseller can only add.
 */
import type { IpaInspection } from '../../records/ipa-inspection';

/** What a reseller may declare for an app (`app_permissions`). */
export interface ResellerAppPermissions {
  entitlements?: readonly string[] | undefined;
  privacy?: Readonly<Record<string, string>> | undefined;
}

export interface AppPermissions {
  entitlements: string[];
  privacy: Record<string, string>;
}

/**
 * privacy = the IPA's usage descriptions, plus the reseller's for keys the IPA lacks (a reseller text never
 * replaces the IPA's, and an empty one is not a description); entitlements = the IPA's. Without an inspected
 * IPA the reseller's declaration stands alone. Undefined when there is nothing to declare.
 */
export function appPermissionsFor(inspection: IpaInspection | undefined, reseller?: ResellerAppPermissions): AppPermissions | undefined {
  const facts = inspection?.state === 'ok' ? inspection.facts : undefined;
  const privacy: Record<string, string> = {};
  for (const [key, text] of Object.entries(reseller?.privacy ?? {})) if (text.trim() !== '') privacy[key] = text;
  Object.assign(privacy, facts?.privacy ?? {});
  const entitlements = facts ? [...facts.entitlements] : [...new Set(reseller?.entitlements ?? [])].sort();
  if (entitlements.length === 0 && Object.keys(privacy).length === 0) return undefined;
  return { entitlements, privacy: Object.fromEntries(Object.entries(privacy).sort(([a], [b]) => a.localeCompare(b))) };
}
