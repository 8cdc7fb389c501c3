/**
 * Dashboard: `/api/user/stats` (balance, today's and this month's adds and spend in UTC, certificates ending
 * within 7 days, the subscription and its limits used, the latest events, the devices by state, counted where
 * each certificate changes). Each part shows its own loading and its own error with a retry, so one failing
 * leaves the other standing. Below them, the last 30 UTC days with any
 * money moved (`series=day`), and the route's CSV of those days as a download.
 */
import { api, call } from '../../api/client';
import { Loaded, useLoad } from '../../components/status';
import { formatCents, formatNumber, formatTime, useStrings } from '../../i18n';
import { hrefOf } from '../../router';
import { ZT } from '../devices/filters';
import { strings as deviceStrings } from '../devices/strings';
import type { ScreenProps } from '../registry';
import { strings } from './strings';

/** Without `series` the route answers the dashboard (the series is the same route's other answer). */
async function loadDashboard() {
  const answer = await call(api.GET('/api/user/stats'));
  if (!('balance' in answer)) throw new Error('/api/user/stats answered a series without series');
  return answer;
}

/** The last 30 UTC days (the route's default series); the table shows the days anything happened, newest first. */
async function loadDays() {
  const answer = await call(api.GET('/api/user/stats', { params: { query: { series: 'day' } } }));
  if (!('series' in answer)) throw new Error('/api/user/stats answered no series');
  return answer;
}

const moved = (r: { adds: number; refunds: number; agent_adds: number }) => r.adds !== 0 || r.refunds !== 0 || r.agent_adds !== 0;

export default function Dashboard(_props: ScreenProps) {
  const t = useStrings(strings);
  const d = useStrings(deviceStrings);
  const stats = useLoad(loadDashboard, []);
  const days = useLoad(loadDays, []);

  return (
    <section>
      <h1>{t('title')}</h1>
      <Loaded load={stats}>
        {(s) => (
          <>
            <div class="tiles">
              <div class="tile" id="balance">
                <h2>{t('balance')}</h2>
                <p class="figure">{formatCents(s.balance, s.currency)}</p>
              </div>
              {([['today', s.today], ['month', s.month]] as const).map(([period, figures]) => (
                <div class="tile" id={`money-${period}`} key={period}>
                  <h2>{t(period)}</h2>
                  <p>
                    {t('adds_spend', { adds: formatNumber(figures.adds), spend: formatCents(figures.spend, s.currency) })} {figures.refunds ? t('refunds', { n: figures.refunds }) : ''}
                  </p>
                </div>
              ))}
              <div class="tile" id="expiring">
                <h2>{t('expiring')}</h2>
                <p class="figure">
                  {s.expiring.at_least ? `${t('at_least')} ` : ''}
                  {formatNumber(s.expiring.count)}
                </p>
                {s.expiring.count ? <a href={hrefOf(['devices'], { zt: 'normal', enabled: '1', expires_before: String(s.time + s.expiring.within_days * 86_400) })}>{t('see_all')}</a> : null}
              </div>
              <div class="tile" id="subscription-tile">
                <h2>{t('subscription')}</h2>
                {s.subscription ? (
                  <>
                    <p>
                      {s.subscription.status === 'none' || !s.subscription.plan
                        ? t('sub_none')
                        : s.subscription.status === 'active'
                          ? t('sub_active', { plan: s.subscription.plan.name, time: formatTime(s.subscription.expires_at) })
                          : t('sub_expired', { plan: s.subscription.plan.name })}
                    </p>
                    {s.subscription.sources.allowed !== null ? <p class="muted">{t('sources_used', { used: s.subscription.sources.used, allowed: s.subscription.sources.allowed })}</p> : null}
                  </>
                ) : (
                  <p>{t('sub_none')}</p>
                )}
              </div>
            </div>
            <div class="card" id="events">
              <h2>{t('events')}</h2>
              {s.events.length === 0 ? (
                <p class="muted">{t('no_events')}</p>
              ) : (
                <ul class="plans">
                  {s.events.map((e) => (
                    <li key={e.id} class="plan">
                      <span class="mono">{e.type}</span>
                      <span class="muted">{formatTime(e.created)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </>
        )}
      </Loaded>
      <div class="card" id="days">
        <h2>{t('days')}</h2>
        <Loaded load={days}>
          {(series) => {
            const rows = series.rows.filter(moved).reverse();
            return (
              <>
                {rows.length === 0 ? (
                  <p class="muted">{t('days_none')}</p>
                ) : (
                  <div class="table-wrap">
                    <table class="cards" id="day-table">
                      <thead>
                        <tr>
                          <th scope="col">{t('day')}</th>
                          <th scope="col">{t('adds')}</th>
                          <th scope="col">{t('spend')}</th>
                          <th scope="col">{t('sales')}</th>
                          <th scope="col">{t('margin')}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {rows.map((r) => (
                          <tr key={r.period} data-day={r.period}>
                            <td data-label={t('day')}>{r.period}</td>
                            <td data-label={t('adds')}>{formatNumber(r.adds)}</td>
                            <td data-label={t('spend')}>{formatCents(r.spend, series.currency)}</td>
                            <td data-label={t('sales')}>{formatCents(r.sales, series.currency)}</td>
                            <td data-label={t('margin')}>{formatCents(r.margin, series.currency)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
                {/* The route's own CSV (every day of the range, zeros included), saved under the name it gives. */}
                <a id="days-csv" href={`/api/user/stats?series=day&from=${series.from}&to=${series.to}&format=csv`} download>
                  {t('days_csv')}
                </a>
              </>
            );
          }}
        </Loaded>
      </div>
      <div class="card" id="devices-by-state">
        <h2>{t('devices')}</h2>
        <Loaded load={stats}>
          {(s) => (
            <>
              <p class="muted">{t('devices_all', { n: s.devices.total })}</p>
              <ul class="states">
                {ZT.map((zt) => (
                  <li key={zt}>
                    <a href={hrefOf(['devices'], { zt })}>
                      <span class={`badge ${zt}`}>{d(`zt_${zt}`)}</span> {formatNumber(s.devices.by_status[zt] ?? 0)}
                    </a>
                  </li>
                ))}
              </ul>
            </>
          )}
        </Loaded>
      </div>
    </section>
  );
}
