import type { IpaInspection } from './ipa-inspection';

/**
 * What the owner sees of an app's inspection (`inspection` in the app management answers): `none` before a
 * download URL was read, `pending` while the background job reads a large file, `ok` with every fact read,
 * `failed` with the reason.
 */
export function inspectionView(inspection: IpaInspection | undefined): Record<string, unknown> {
  if (!inspection) return { state: 'none' };
  switch (inspection.state) {
    case 'pending':
      return { state: 'pending', requested_at: inspection.requestedAt };
    case 'failed':
      return { state: 'failed', error: inspection.failure, ...(inspection.status !== undefined ? { status: inspection.status } : {}), inspected_at: inspection.inspectedAt };
    case 'ok': {
      const f = inspection.facts;
      return {
        state: 'ok',
        sha256: f.sha256,
        size: f.size,
        bundle_identifier: f.bundleIdentifier,
        version: f.version,
        build_version: f.buildVersion,
        min_os_version: f.minOSVersion,
        display_name: f.displayName,
        entitlements: f.entitlements,
        privacy: f.privacy,
        inspected_at: inspection.inspectedAt,
      };
    }
  }
}
