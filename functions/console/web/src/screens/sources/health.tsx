/** Link health: the last probe of each published app's download link, and a check now. */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { FormError } from '../../components/field';
import { Loaded, useLoad } from '../../components/status';
import { formatTime, useStrings } from '../../i18n';
import { strings } from './strings';

type Apps = Awaited<ReturnType<typeof loadHealth>>['apps'];
const loadHealth = (sourceId: string) => call(api.GET('/api/appstore/manage/sources/{source_id}/health', { params: { path: { source_id: sourceId } } }));

export function Health({ sourceId }: { sourceId: string }) {
  const t = useStrings(strings);
  const health = useLoad(() => loadHealth(sourceId), [sourceId]);
  const [checked, setChecked] = useState<{ apps: Apps; checked: number; remaining: number } | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const check = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setChecked(await call(api.POST('/api/appstore/manage/sources/{source_id}/health/check', { params: { path: { source_id: sourceId } } })));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const table = (apps: Apps) =>
    apps.length === 0 ? (
      <p class="card muted">{t('health_none')}</p>
    ) : (
      <div class="table-wrap">
        <table class="cards" id="health-table">
          <thead>
            <tr>
              <th scope="col">{t('app_name')}</th>
              <th scope="col">{t('health')}</th>
              <th scope="col">{t('health_status')}</th>
              <th scope="col">{t('health_checked')}</th>
              <th scope="col">{t('health_failures')}</th>
              <th scope="col">{t('app_download_url')}</th>
            </tr>
          </thead>
          <tbody>
            {apps.map((a) => (
              <tr key={a.app_id}>
                <td data-label={t('app_name')}>
                  {a.name} <span class="muted mono">{a.version}</span>
                </td>
                <td data-label={t('health')}>
                  <span class={`badge ${a.health === 'ok' ? 'normal' : a.health === 'failing' ? 'failed' : ''}`}>{t(`health_${a.health}`)}</span>
                  {a.file_changed ? <span class="badge processing">{t('health_file_changed')}</span> : null}
                </td>
                <td data-label={t('health_status')}>{a.last_status || '—'}</td>
                <td data-label={t('health_checked')}>{a.last_checked ? formatTime(a.last_checked) : '—'}</td>
                <td data-label={t('health_failures')}>{a.failures}</td>
                <td data-label={t('app_download_url')} class="mono">
                  {a.url}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );

  return (
    <section aria-labelledby="health-title">
      <div class="actions">
        <h2 id="health-title">{t('tab_health')}</h2>
        <button type="button" class="btn" id="health-check" disabled={busy} onClick={() => void check()}>
          {busy ? t('health_checking') : t('health_check')}
        </button>
      </div>
      <FormError error={error} fields={[]} />
      {checked ? (
        <>
          <p class="success" role="status">
            {t('health_checked_n', { checked: checked.checked, remaining: checked.remaining })}
          </p>
          {table(checked.apps)}
        </>
      ) : (
        <Loaded load={health}>{(data) => table(data.apps)}</Loaded>
      )}
    </section>
  );
}
