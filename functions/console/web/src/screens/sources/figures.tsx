/**
 * Figures: for one UTC day, each app's downloads (the download gate's redirects, summed per app and day within
 * seconds) and the source's installs (UDID captures through its page); 99 apps a page, "more" reads the next.
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Field, FormError } from '../../components/field';
import { Loaded, useLoad } from '../../components/status';
import { formatNumber, useStrings } from '../../i18n';
import { strings } from './strings';

type Rows = Awaited<ReturnType<typeof loadDay>>['rows'];
const today = () => new Date().toISOString().slice(0, 10);

async function loadDay(sourceId: string, period: string, cursor?: string) {
  const answer = await call(api.GET('/api/user/stats', { params: { query: { by: 'app', source_id: sourceId, period, ...(cursor ? { cursor } : {}) } } }));
  if (!('installs' in answer)) throw new Error('/api/user/stats answered no app figures');
  return answer;
}

export function Figures({ sourceId }: { sourceId: string }) {
  const t = useStrings(strings);
  const [period, setPeriod] = useState(today);
  const day = useLoad(() => loadDay(sourceId, period), [sourceId, period]);
  // Pages read after the first, for the day shown.
  const [more, setMore] = useState<{ period: string; rows: Rows; next: string | null } | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  const readMore = async (cursor: string, before: Rows) => {
    setBusy(true);
    setError(undefined);
    try {
      const next = await loadDay(sourceId, period, cursor);
      setMore({ period, rows: [...before, ...next.rows], next: next.next_cursor });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="figures-title">
      <h2 id="figures-title">{t('tab_figures')}</h2>
      <div class="card">
        <Field label={t('figures_day')} name="period" hint={t('figures_day_hint')}>
          {(p) => <input {...p} type="date" value={period} max={today()} onInput={(e) => e.currentTarget.value && (setMore(undefined), setPeriod(e.currentTarget.value))} />}
        </Field>
      </div>
      <Loaded load={day}>
        {(data) => {
          const shown = more?.period === data.period ? more : { rows: data.rows, next: data.next_cursor };
          return (
            <>
              <p class="card" id="figures-installs">
                {t('figures_installs', { n: formatNumber(data.installs) })}
              </p>
              {shown.rows.length === 0 ? (
                <p class="card muted">{t('figures_no_apps')}</p>
              ) : (
                <div class="table-wrap">
                  <table class="cards" id="figures-table">
                    <thead>
                      <tr>
                        <th scope="col">{t('app_name')}</th>
                        <th scope="col">{t('figures_downloads')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {shown.rows.map((r) => (
                        <tr key={r.app_id}>
                          <td data-label={t('app_name')}>{r.name}</td>
                          <td data-label={t('figures_downloads')}>
                            {formatNumber(r.downloads)}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              <FormError error={error} fields={[]} />
              <p class="actions">
                {shown.next ? (
                  <button type="button" class="btn secondary" id="figures-more" disabled={busy} onClick={() => void readMore(shown.next!, shown.rows)}>
                    {t('figures_more')}
                  </button>
                ) : null}
                <a class="btn secondary" id="figures-csv" href={`/api/user/stats?by=app&source_id=${encodeURIComponent(sourceId)}&period=${data.period}&format=csv`} download>
                  {t('figures_csv')}
                </a>
              </p>
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
