/** Who may read a source: its unlock codes (generate, list, CSV), its block list and misuse monitor, the devices' own feed URLs. */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Field, FormError } from '../../components/field';
import { saveCsv } from '../../components/files';
import { LocalPaging, Paging, useCursors } from '../../components/paging';
import { Loaded, useLoad } from '../../components/status';
import { common } from '../../components/strings';
import { formatTime, useStrings } from '../../i18n';
import { strings } from './strings';

/** The codes route answers every code at once: shown a page at a time here. */
const CODES_PAGE = 50;

export function UnlockCodes({ sourceId }: { sourceId: string }) {
  const t = useStrings(strings);
  const c = useStrings(common);
  const list = useLoad(
    () => call(api.GET('/api/appstore/manage/sources/{source_id}/unlock-codes', { params: { path: { source_id: sourceId } } })).then((d) => d as Extract<typeof d, { codes: { state: unknown }[] }>),
    [sourceId],
  );
  const [count, setCount] = useState('10');
  const [days, setDays] = useState('30');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const [fresh, setFresh] = useState<{ code: string; days: number }[]>([]);
  const [page, setPage] = useState(0);

  const generate = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const created = await call(
        api.POST('/api/appstore/manage/sources/{source_id}/unlock-codes', { params: { path: { source_id: sourceId } }, body: { count: Number(count), days: Number(days) } as never }),
      );
      setFresh((created as { codes: { code: string; days: number }[] }).codes);
      setPage(0);
      list.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="codes-title">
      <h2 id="codes-title">{t('tab_codes')}</h2>
      <form class="card" id="codes-form" onSubmit={generate} aria-label={t('codes_generate')}>
        <div class="filters">
          <Field label={t('codes_count')} name="count" error={error}>
            {(p) => <input {...p} type="number" min={1} max={100} required value={count} onInput={(e) => setCount(e.currentTarget.value)} />}
          </Field>
          <Field label={t('codes_days')} name="days" error={error}>
            {(p) => <input {...p} type="number" min={1} max={3650} required value={days} onInput={(e) => setDays(e.currentTarget.value)} />}
          </Field>
        </div>
        <FormError error={error} fields={['count', 'days']} />
        <button type="submit" class="btn" disabled={busy}>
          {t('codes_generate')}
        </button>
      </form>
      {fresh.length ? (
        <div class="success" role="status" id="codes-new">
          <p>{t('codes_generated', { n: fresh.length })}</p>
          <p class="secret">{fresh.map((x) => x.code).join(' ')}</p>
        </div>
      ) : null}
      <Loaded load={list}>
        {(data) =>
          data.codes.length === 0 ? (
            <p class="card muted">{t('codes_none')}</p>
          ) : (
            <>
              <div class="actions">
                <p class="muted">{t('codes_total', { n: data.codes.length, unused: data.codes.filter((x) => x.state === 'unused').length })}</p>
                <button type="button" class="btn secondary" id="export-codes" onClick={() => saveCsv(`unlock-codes-${sourceId}.csv`, data.codes, ['code', 'days', 'state', 'udid', 'used_at', 'ends_at'])}>
                  {c('export_csv')}
                </button>
              </div>
              <div class="table-wrap">
                <table class="cards" id="codes-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('code')}</th>
                      <th scope="col">{t('codes_days')}</th>
                      <th scope="col">{t('code_state')}</th>
                      <th scope="col">{t('udid')}</th>
                      <th scope="col">{t('code_used_at')}</th>
                      <th scope="col">{t('code_ends_at')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.codes.slice(page * CODES_PAGE, (page + 1) * CODES_PAGE).map((x) => (
                      <tr key={x.code}>
                        <td data-label={t('code')} class="mono">
                          {x.code}
                        </td>
                        <td data-label={t('codes_days')}>{x.days}</td>
                        <td data-label={t('code_state')}>
                          <span class={`badge ${x.state === 'used' ? 'normal' : ''}`}>{x.state === 'used' ? t('code_used') : t('code_unused')}</span>
                        </td>
                        <td data-label={t('udid')} class="mono">
                          {x.udid ?? '—'}
                        </td>
                        <td data-label={t('code_used_at')}>{x.used_at ? formatTime(x.used_at) : '—'}</td>
                        <td data-label={t('code_ends_at')}>{x.ends_at ? formatTime(x.ends_at) : '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <LocalPaging page={page} setPage={setPage} size={CODES_PAGE} total={data.codes.length} />
            </>
          )
        }
      </Loaded>
    </section>
  );
}

export function Blocklist({ sourceId }: { sourceId: string }) {
  const t = useStrings(strings);
  const cursors = useCursors();
  const list = useLoad(
    () => call(api.GET('/api/appstore/manage/sources/{source_id}/blocklist', { params: { path: { source_id: sourceId }, query: { limit: '20', ...(cursors.cursor ? { cursor: cursors.cursor } : {}) } } })),
    [sourceId, cursors.cursor],
  );
  const [udid, setUdid] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [rowError, setRowError] = useState<unknown>(undefined);

  const entry = (u: string) => ({ params: { path: { source_id: sourceId, udid: u } } });
  const block = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      await call(api.PUT('/api/appstore/manage/sources/{source_id}/blocklist/{udid}', entry(udid.trim())));
      setUdid('');
      cursors.reset();
      list.reload();
    } catch (err) {
      setError(err);
    }
  };
  const unblock = async (u: string) => {
    setRowError(undefined);
    try {
      await call(api.DELETE('/api/appstore/manage/sources/{source_id}/blocklist/{udid}', entry(u)));
      list.reload();
    } catch (err) {
      setRowError(err);
    }
  };

  return (
    <section aria-labelledby="blocklist-title">
      <h2 id="blocklist-title">{t('tab_blocklist')}</h2>
      <form class="card" id="block-form" onSubmit={block} aria-label={t('block')}>
        <Field label={t('udid')} name="udid" error={error}>
          {(p) => <input {...p} type="text" dir="ltr" spellcheck={false} autoComplete="off" required value={udid} onInput={(e) => setUdid(e.currentTarget.value)} />}
        </Field>
        <FormError error={error} fields={['udid']} />
        <button type="submit" class="btn">
          {t('block')}
        </button>
      </form>
      <FormError error={rowError} fields={[]} />
      <Loaded load={list}>
        {(data) => (
          <>
            <h3>{t('blocked')}</h3>
            {data.blocked.length === 0 ? (
              <p class="muted">{t('blocked_none')}</p>
            ) : (
              <div class="table-wrap">
                <table class="cards" id="blocked-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('udid')}</th>
                      <th scope="col">{t('block_reason')}</th>
                      <th scope="col">{t('block_added')}</th>
                      <th scope="col">{t('actions')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.blocked.map((b) => (
                      <tr key={b.udid}>
                        <td data-label={t('udid')} class="mono">
                          {b.udid}
                        </td>
                        <td data-label={t('block_reason')}>{t(`reason_${b.reason}`)}</td>
                        <td data-label={t('block_added')}>{formatTime(b.added_at)}</td>
                        <td data-label={t('actions')}>
                          <button type="button" class="btn secondary small" aria-label={t('unblock_named', { udid: b.udid })} onClick={() => void unblock(b.udid)}>
                            {t('unblock')}
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <h3>{t('monitored')}</h3>
            {data.monitored.length === 0 ? (
              <p class="muted">{t('monitored_none')}</p>
            ) : (
              <div class="table-wrap">
                <table class="cards" id="monitored-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('udid')}</th>
                      <th scope="col">{t('block_reason')}</th>
                      <th scope="col">{t('monitor_count')}</th>
                      <th scope="col">{t('monitor_last')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.monitored.map((m) => (
                      <tr key={`${m.udid}#${m.role}`}>
                        <td data-label={t('udid')} class="mono">
                          {m.udid}
                        </td>
                        <td data-label={t('block_reason')}>{t(`reason_${m.role}`)}</td>
                        <td data-label={t('monitor_count')}>{m.count}</td>
                        <td data-label={t('monitor_last')}>{formatTime(m.last_seen)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <Paging cursors={cursors} next={data.next} />
          </>
        )}
      </Loaded>
    </section>
  );
}

export function DeviceUrls({ sourceId }: { sourceId: string }) {
  const t = useStrings(strings);
  const [udid, setUdid] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [answer, setAnswer] = useState<{ udid: string; url?: string; revoked?: boolean } | undefined>(undefined);

  const run = async (action: 'get' | 'revoke') => {
    setError(undefined);
    setAnswer(undefined);
    const params = { params: { path: { source_id: sourceId }, query: { udid: udid.trim() } } };
    try {
      const got = action === 'get' ? await call(api.GET('/api/appstore/manage/sources/{source_id}/device-url', params)) : await call(api.DELETE('/api/appstore/manage/sources/{source_id}/device-url', params));
      setAnswer(got as { udid: string; url?: string; revoked?: boolean });
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section aria-labelledby="device-urls-title">
      <h2 id="device-urls-title">{t('tab_device_urls')}</h2>
      <form
        class="card"
        id="device-url-form"
        aria-label={t('tab_device_urls')}
        onSubmit={(e) => {
          e.preventDefault();
          void run('get');
        }}
      >
        <p class="muted">{t('device_url_hint')}</p>
        <Field label={t('udid')} name="udid" error={error}>
          {(p) => <input {...p} type="text" dir="ltr" spellcheck={false} autoComplete="off" required value={udid} onInput={(e) => setUdid(e.currentTarget.value)} />}
        </Field>
        <FormError error={error} fields={['udid']} />
        <div class="actions">
          <button type="submit" class="btn">
            {t('device_url_get')}
          </button>
          <button type="button" class="btn danger" disabled={!udid.trim()} onClick={() => void run('revoke')}>
            {t('device_url_revoke')}
          </button>
        </div>
      </form>
      {answer?.url ? (
        <p class="success" role="status">
          {t('device_url_for', { udid: answer.udid })} <span class="secret" id="device-url">{answer.url}</span>
        </p>
      ) : null}
      {answer && answer.revoked !== undefined ? (
        <p class="success" role="status">
          {answer.revoked ? t('device_url_revoked', { udid: answer.udid }) : t('device_url_none', { udid: answer.udid })}
        </p>
      ) : null}
    </section>
  );
}
