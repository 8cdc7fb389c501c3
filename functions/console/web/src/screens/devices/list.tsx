/** The device list: every filter the API has, paged by its cursor, each row opening the device; CSV of the filtered list. */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Field, FormError } from '../../components/field';
import { saveCsv } from '../../components/files';
import { Paging, useCursors } from '../../components/paging';
import { Loaded, useLoad } from '../../components/status';
import { common } from '../../components/strings';
import { formatTime, useStrings } from '../../i18n';
import { hrefOf, navigate } from '../../router';
import type { CHOICE_FILTERS} from './filters';
import { DATE_FILTERS, DEVICE_TYPES, FILTERS, WARRANTIES, ZT, dayToSeconds, listQuery, secondsToDay, type FilterName, type ListQuery } from './filters';
import { strings } from './strings';

const PAGE = 20;
/** The export follows the cursor up to this many rows (100 a page). */
const EXPORT_MAX = 10_000;

type Item = Awaited<ReturnType<typeof fetchPage>>['items'][number];

function fetchPage(query: ListQuery, cursor: string, limit = PAGE) {
  return call(api.GET('/api/device/list', { params: { query: { ...query, limit: String(limit), ...(cursor ? { cursor } : {}) } } }));
}

export function DeviceList({ query }: { query: URLSearchParams }) {
  const t = useStrings(strings);
  const c = useStrings(common);
  const filters = listQuery(query);
  const cursors = useCursors();
  const page = useLoad(() => fetchPage(filters, cursors.cursor), [cursors.cursor]);
  const [form, setForm] = useState<Record<FilterName, string>>(() => {
    const initial = {} as Record<FilterName, string>;
    for (const name of FILTERS) initial[name] = (DATE_FILTERS as readonly string[]).includes(name) ? secondsToDay(query.get(name)) : (query.get(name) ?? '');
    return initial;
  });
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<unknown>(undefined);

  const set = (name: FilterName) => (e: Event) => setForm({ ...form, [name]: (e.currentTarget as HTMLInputElement).value });
  const apply = (e: Event) => {
    e.preventDefault();
    const next: Record<string, string> = {};
    for (const name of FILTERS) {
      const value = form[name].trim();
      if (!value) continue;
      next[name] = (DATE_FILTERS as readonly string[]).includes(name) ? dayToSeconds(value, name === 'added_to') : value;
    }
    navigate(['devices'], next);
  };
  const exportCsv = async () => {
    setExporting(true);
    setExportError(undefined);
    try {
      const rows: Item[] = [];
      let cursor = '';
      do {
        const got = await fetchPage(filters, cursor, 100);
        rows.push(...got.items);
        cursor = got.next;
      } while (cursor && rows.length < EXPORT_MAX);
      saveCsv('devices.csv', rows, ['udid', 'kid', 'zt', 'enabled', 'type', 'shtype', 'pool', 'addtime', 'ytime', 'beizhu', 'pname']);
    } catch (error) {
      setExportError(error);
    } finally {
      setExporting(false);
    }
  };

  const choice = (name: (typeof CHOICE_FILTERS)[number], options: readonly { value: string; label: string }[]) => (
    <Field label={t(name)} name={name} error={page.state === 'error' ? page.error : undefined}>
      {(p) => (
        <select {...p} value={form[name]} onChange={set(name)}>
          <option value="">{c('any')}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  const text = (name: FilterName, label: string, kind: 'text' | 'date' = 'text') => (
    <Field label={label} name={name} error={page.state === 'error' ? page.error : undefined}>
      {(p) =>
        kind === 'date' ? (
          <input {...p} type="date" value={form[name]} onInput={set(name)} />
        ) : (
          <input {...p} type="text" value={form[name]} onInput={set(name)} {...(name === 'udid' ? { dir: 'ltr', spellcheck: false, autoComplete: 'off' } : {})} />
        )
      }
    </Field>
  );

  return (
    <section>
      <div class="actions">
        <h1>{t('title')}</h1>
        <a class="btn" href={hrefOf(['devices', 'add'])}>
          {t('add')}
        </a>
      </div>
      <form class="card" onSubmit={apply} aria-label={t('filters')}>
        <div class="filters">
          {text('udid', t('search_udid'))}
          {choice('zt', ZT.map((z) => ({ value: z, label: t(`zt_${z}`) })))}
          {choice('enabled', [
            { value: '1', label: t('enabled_on') },
            { value: '0', label: t('enabled_off') },
          ])}
          {choice('pool', [
            { value: '0', label: t('pool_0') },
            { value: '1', label: t('pool_1') },
          ])}
          {choice('warranty', WARRANTIES.map((w) => ({ value: w, label: w })))}
          {choice('device_type', DEVICE_TYPES.map((d) => ({ value: d, label: d })))}
          {text('added_from', t('added_from'), 'date')}
          {text('added_to', t('added_to'), 'date')}
          {text('expires_before', t('expires_before'), 'date')}
          {text('beizhu', t('beizhu'))}
          {text('account_id', t('account_id'))}
          {text('agent', t('agent'))}
        </div>
        <div class="actions">
          <button type="submit" class="btn">
            {c('apply')}
          </button>
          <a class="btn secondary" href={hrefOf(['devices'])}>
            {c('reset')}
          </a>
          <button type="button" class="btn secondary" id="export-devices" onClick={exportCsv} disabled={exporting}>
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
                <table class="cards" id="device-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('udid')}</th>
                      <th scope="col">{t('zt')}</th>
                      <th scope="col">{t('enabled')}</th>
                      <th scope="col">{t('device_type')}</th>
                      <th scope="col">{t('warranty')}</th>
                      <th scope="col">{t('added')}</th>
                      <th scope="col">{t('membership')}</th>
                      <th scope="col">{t('beizhu')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((d) => (
                      <tr key={d.kid} data-kid={d.kid}>
                        <td data-label={t('udid')}>
                          <a class="udid" href={hrefOf(['devices', d.kid])}>
                            {d.udid}
                          </a>
                        </td>
                        <td data-label={t('zt')}>
                          <span class={`badge ${d.zt}`}>{(ZT as readonly string[]).includes(d.zt) ? t(`zt_${d.zt as (typeof ZT)[number]}`) : d.zt}</span>
                        </td>
                        <td data-label={t('enabled')}>
                          <span class={`badge ${d.enabled ? 'on' : 'off'}`}>{d.enabled ? t('enabled_on') : t('enabled_off')}</span>
                        </td>
                        <td data-label={t('device_type')}>{d.type}</td>
                        <td data-label={t('warranty')}>{d.shtype}</td>
                        <td data-label={t('added')}>{formatTime(d.addtime)}</td>
                        <td data-label={t('membership')}>{formatTime(d.ytime)}</td>
                        <td data-label={t('beizhu')}>{d.beizhu}</td>
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
