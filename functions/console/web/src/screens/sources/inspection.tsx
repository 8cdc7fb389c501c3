/** What reading the IPA at an app's download URL found: its state, and what the file says. */
import { useStrings } from '../../i18n';
import { strings } from './strings';

export interface Inspection {
  state: 'none' | 'pending' | 'ok' | 'failed';
  error?: string;
  status?: number;
  bundle_identifier?: string;
  version?: string;
  build_version?: string;
  min_os_version?: string;
  size?: number;
}

export function InspectionSummary({ inspection }: { inspection: Inspection }) {
  const t = useStrings(strings);
  const badge = { none: '', pending: 'processing', ok: 'normal', failed: 'failed' }[inspection.state];
  return (
    <span class="inspection" data-state={inspection.state}>
      <span class={`badge ${badge}`}>{t(`inspection_${inspection.state}`)}</span>
      {inspection.state === 'ok' ? (
        <span class="muted mono">
          {' '}
          {inspection.bundle_identifier} {inspection.version}
          {inspection.build_version ? ` (${inspection.build_version})` : ''}
        </span>
      ) : null}
      {inspection.state === 'failed' && inspection.error ? (
        <span class="muted">
          {' '}
          {inspection.error}
          {inspection.status ? ` (HTTP ${inspection.status})` : ''}
        </span>
      ) : null}
    </span>
  );
}
