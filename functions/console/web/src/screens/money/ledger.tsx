/** The ledger (`/api/user/ledger`): kind, dates and agent filters in the route's query, cursor paging, CSV export. */
import { useState } from 'preact/hooks';
import { api, call, type SessionPaths } from '../../api/client';
import { Field, FormError } from '../../components/field';
import { saveCsv } from '../../components/files';
import { Paging, useCursors } from '../../components/paging';
import { Loaded, useLoad } from '../../components/status';
import { common } from '../../components/strings';
import { formatCents, formatTime, useStrings } from '../../i18n';
import { hrefOf, navigate } from '../../router';
import { dayToSeconds, secondsToDay } from '../devices/filters';
import { strings } from './strings';

type LedgerQuery = NonNullable<NonNullable<SessionPaths['/api/user/ledger']['get']['parameters']>['query']>;
type Entry = Awaited<ReturnType<typeof fetchPage>>['items'][number];

const KINDS = ['opening', 'credit', 'charge', 'refund', 'review_refund', 'subscription', 'agent_sale', 'agent_cost', 'agent_refund', 'agent_topup', 'topup'] as const;
const EXPORT_MAX = 10_000;

function fetchPage(query: LedgerQuery, cursor: string, limit = 20) {
  return call(api.GET('/api/user/ledger', { params: { query: { ...query, limit: String(limit), ...(cursor ? { cursor } : {}) } } }));
}

function ledgerQuery(query: URLSearchParams): LedgerQuery {
  const out: Record<string, string> = {};
  for (const name of ['kind', 'from', 'to', 'agent']) {
    const value = query.get(name);
    if (value) out[name] = value;
  }
  return out as LedgerQuery;
}

function describeEntry(e: Entry): string {
  return [e.udid, e.kid, e.code, e.plan, e.reason, e.note, e.agent_id].filter(Boolean).join(' · ');
}

export function Ledger({ query }: { query: URLSearchParams }) {
  const t = useStrings(strings);
  const c = useStrings(common);
  const filters = ledgerQuery(query);
  const cursors = useCursors();
  const page = useLoad(() => fetchPage(filters, cursors.cursor), [cursors.cursor]);
  const [form, setForm] = useState({ kind: query.get('kind') ?? '', from: secondsToDay(query.get('from')), to: secondsToDay(query.get('to')), agent: query.get('agent') ?? '' });
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<unknown>(undefined);
  const kindName = (kind: string) => ((KINDS as readonly string[]).includes(kind) ? t(`k_${kind as (typeof KINDS)[number]}`) : kind);
  const fieldError = page.state === 'error' ? page.error : undefined;

  const apply = (e: Event) => {
    e.preventDefault();
    navigate(['money'], { kind: form.kind, from: form.from ? dayToSeconds(form.from) : '', to: form.to ? dayToSeconds(form.to, true) : '', agent: form.agent.trim() });
  };
  const exportCsv = async () => {
    setExporting(true);
    setExportError(undefined);
    try {
      const rows: Entry[] = [];
      let cursor = '';
      do {
        const got = await fetchPage(filters, cursor, 100);
        rows.push(...got.items);
        cursor = got.next;
      } while (cursor && rows.length < EXPORT_MAX);
      saveCsv('ledger.csv', rows, ['seq', 'time', 'kind', 'amount', 'balance_after', 'udid', 'kid', 'mode', 'tier', 'code', 'plan', 'reason', 'note', 'agent_id', 'level', 'hold_id', 'reservation_id']);
    } catch (error) {
      setExportError(error);
    } finally {
      setExporting(false);
    }
  };

  return (
    <section aria-labelledby="ledger-title">
      <h2 id="ledger-title" class="section-title">
        {t('ledger')}
      </h2>
      <form class="card" onSubmit={apply}>
        <div class="filters">
          <Field label={t('kind')} name="kind" error={fieldError}>
            {(p) => (
              <select {...p} value={form.kind} onChange={(e) => setForm({ ...form, kind: e.currentTarget.value })}>
                <option value="">{c('any')}</option>
                {KINDS.map((k) => (
                  <option key={k} value={k}>
                    {kindName(k)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('from')} name="from" error={fieldError}>
            {(p) => <input {...p} type="date" value={form.from} onInput={(e) => setForm({ ...form, from: e.currentTarget.value })} />}
          </Field>
          <Field label={t('to')} name="to" error={fieldError}>
            {(p) => <input {...p} type="date" value={form.to} onInput={(e) => setForm({ ...form, to: e.currentTarget.value })} />}
          </Field>
          <Field label={t('agent')} name="agent" error={fieldError}>
            {(p) => <input {...p} type="text" value={form.agent} onInput={(e) => setForm({ ...form, agent: e.currentTarget.value })} />}
          </Field>
        </div>
        <div class="actions">
          <button type="submit" class="btn">
            {c('apply')}
          </button>
          <a class="btn secondary" href={hrefOf(['money'])}>
            {c('reset')}
          </a>
          <button type="button" class="btn secondary" id="export-ledger" onClick={exportCsv} disabled={exporting}>
            {exporting ? t('exporting') : c('export_csv')}
          </button>
        </div>
        <FormError error={exportError} fields={[]} />
      </form>
      <Loaded load={page}>
        {(data) =>
          data.items.length === 0 ? (
            <p class="card muted">{t('none')}</p>
          ) : (
            <>
              <div class="table-wrap">
                <table class="cards" id="ledger-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('seq')}</th>
                      <th scope="col">{t('time')}</th>
                      <th scope="col">{t('kind')}</th>
                      <th scope="col">{t('amount')}</th>
                      <th scope="col">{t('balance_after')}</th>
                      <th scope="col">{t('what')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((e) => (
                      <tr key={e.seq} data-kind={e.kind}>
                        <td data-label={t('seq')}>{e.seq}</td>
                        <td data-label={t('time')}>{formatTime(e.time)}</td>
                        <td data-label={t('kind')}>{kindName(e.kind)}</td>
                        <td data-label={t('amount')} class={e.amount < 0 ? 'negative' : 'positive'}>
                          {formatCents(e.amount)}
                        </td>
                        <td data-label={t('balance_after')}>{formatCents(e.balance_after)}</td>
                        <td data-label={t('what')} class="mono">
                          {describeEntry(e)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Paging cursors={cursors} next={data.next} />
            </>
          )
        }
      </Loaded>
    </section>
  );
}
