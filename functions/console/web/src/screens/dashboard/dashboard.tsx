/**
 * Dashboard: balance, today's and this month's adds and spend (UTC), devices by state, certificates ending
 * within 7 days, and the subscription with its limits used. Each figure is its own call and its own tile, so
 * one failing shows its error with a retry while the others stand.
 */
import { api, call } from '../../api/client';
import { Loaded, useLoad } from '../../components/status';
import { formatCents, formatNumber, formatTime, useStrings } from '../../i18n';
import { hrefOf } from '../../router';
import { strings as deviceStrings } from '../devices/strings';
import { ZT } from '../devices/filters';
import type { ScreenProps } from '../registry';
import { strings } from './strings';

const DAY = 86_400;
/** The ledger pages read for the month's figures (100 entries a page); past it the figures say "at least". */
const LEDGER_PAGES = 5;

/** Adds (charges, less refunds) and spend since `from`, read from the ledger: the same entries the Money screen lists. */
async function moneySince(from: number) {
  let cursor = '';
  let pages = 0;
  const entries = [];
  do {
    const page = await call(api.GET('/api/user/ledger', { params: { query: { kind: 'charge,refund,review_refund', from: String(from), limit: '100', ...(cursor ? { cursor } : {}) } } }));
    entries.push(...page.items);
    cursor = page.next;
  } while (cursor && ++pages < LEDGER_PAGES);
  return { entries, complete: !cursor };
}

function startOfUtcDay(now: Date): number {
  return Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) / 1000);
}
function startOfUtcMonth(now: Date): number {
  return Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) / 1000);
}

export default function Dashboard(_props: ScreenProps) {
  const t = useStrings(strings);
  const d = useStrings(deviceStrings);
  const now = new Date();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const balance = useLoad(() => call(api.GET('/api/user/balance')), []);
  const money = useLoad(() => moneySince(startOfUtcMonth(now)), []);
  const devices = useLoad(() => call(api.GET('/api/device/list', { params: { query: { limit: '100' } } })), []);
  const expiring = useLoad(() => call(api.GET('/api/device/list', { params: { query: { zt: 'normal', enabled: '1', expires_before: String(nowSeconds + 7 * DAY), limit: '100' } } })), []);
  const subscription = useLoad(() => call(api.GET('/api/appstore/manage/subscription')), []);
  const currency = balance.state === 'ok' ? balance.data.currency : undefined;

  const tally = (entries: { kind: string; amount: number; time: number }[], from: number) => {
    const inPeriod = entries.filter((e) => e.time >= from);
    const adds = inPeriod.filter((e) => e.kind === 'charge').length - inPeriod.filter((e) => e.kind !== 'charge').length;
    const spend = -inPeriod.reduce((sum, e) => sum + e.amount, 0) || 0;
    return { adds, spend };
  };

  return (
    <section>
      <h1>{t('title')}</h1>
      <div class="tiles">
        <div class="tile" id="balance">
          <h2>{t('balance')}</h2>
          <Loaded load={balance}>{(b) => <p class="figure">{formatCents(b.balance, b.currency)}</p>}</Loaded>
        </div>
        {(['today', 'month'] as const).map((period) => (
          <div class="tile" id={`money-${period}`} key={period}>
            <h2>{t(period)}</h2>
            <Loaded load={money}>
              {(m) => {
                const { adds, spend } = tally(m.entries, period === 'today' ? startOfUtcDay(now) : startOfUtcMonth(now));
                return (
                  <p>
                    {m.complete ? '' : `${t('at_least')} `}
                    {t('adds_spend', { adds: formatNumber(adds), spend: formatCents(spend, currency) })}
                  </p>
                );
              }}
            </Loaded>
          </div>
        ))}
        <div class="tile" id="expiring">
          <h2>{t('expiring')}</h2>
          <Loaded load={expiring}>
            {(e) => (
              <>
                <p class="figure">{e.next ? `${formatNumber(e.items.length)}+` : formatNumber(e.items.length)}</p>
                {e.items.length ? (
                  <a href={hrefOf(['devices'], { zt: 'normal', enabled: '1', expires_before: String(nowSeconds + 7 * DAY) })}>{t('see_all')}</a>
                ) : null}
              </>
            )}
          </Loaded>
        </div>
        <div class="tile" id="subscription-tile">
          <h2>{t('subscription')}</h2>
          <Loaded load={subscription}>
            {(s) => (
              <>
                <p>
                  {s.status === 'none' || !s.plan
                    ? t('sub_none')
                    : s.status === 'active'
                      ? t('sub_active', { plan: s.plan.name, time: formatTime(s.expires_at) })
                      : t('sub_expired', { plan: s.plan.name })}
                </p>
                {s.limits ? <p class="muted">{t('sources_used', { used: s.usage.sources, allowed: s.limits.sources })}</p> : null}
              </>
            )}
          </Loaded>
        </div>
      </div>
      <div class="card" id="devices-by-state">
        <h2>{t('devices')}</h2>
        <Loaded load={devices}>
          {(list) => (
            <>
              <p class="muted">{list.next ? t('devices_latest', { n: list.items.length }) : t('devices_all', { n: list.items.length })}</p>
              <ul class="states">
                {ZT.map((zt) => (
                  <li key={zt}>
                    <a href={hrefOf(['devices'], { zt })}>
                      <span class={`badge ${zt}`}>{d(`zt_${zt}`)}</span> {formatNumber(list.items.filter((item) => item.zt === zt).length)}
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
