/** The event stream: the caller's events oldest first (kept 30 days), a page at a time, by type. */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Field } from '../../components/field';
import { Paging, useCursors } from '../../components/paging';
import { Loaded, useLoad } from '../../components/status';
import { common } from '../../components/strings';
import { formatTime, useLang, useStrings } from '../../i18n';
import { EVENT_LABELS, EVENT_TYPES, type EventType } from './event-types';
import { strings } from './strings';

const PAGE = 25;

export function Events() {
  const t = useStrings(strings);
  const c = useStrings(common);
  const lang = useLang();
  const [type, setType] = useState<EventType | ''>('');
  const cursors = useCursors();
  const page = useLoad(
    () => call(api.GET('/api/user/events', { params: { query: { limit: PAGE, ...(type ? { types: type } : {}), ...(cursors.cursor ? { after: cursors.cursor } : {}) } } })),
    [type, cursors.cursor],
  );
  return (
    <section aria-labelledby="events-title">
      <h2 id="events-title">{t('tab_events')}</h2>
      <p class="muted">{t('events_kept')}</p>
      <div class="filters">
        <Field label={t('event_type')} name="types" error={page.state === 'error' ? page.error : undefined}>
          {(p) => (
            <select
              {...p}
              value={type}
              onChange={(e) => {
                setType(e.currentTarget.value as EventType | '');
                cursors.reset();
              }}
            >
              <option value="">{c('any')}</option>
              {EVENT_TYPES.map((x) => (
                <option key={x} value={x}>
                  {EVENT_LABELS[x][lang]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Loaded load={page}>
        {(data) => (
          <>
            {data.events.length === 0 ? (
              <p class="card muted">{t('no_events')}</p>
            ) : (
              <div class="table-wrap">
                <table class="cards" id="event-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('event_time')}</th>
                      <th scope="col">{t('event_type')}</th>
                      <th scope="col">{t('event_id')}</th>
                      <th scope="col">{t('event_data')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.events.map((e) => (
                      <tr key={e.id} data-type={e.type}>
                        <td data-label={t('event_time')}>{formatTime(e.created)}</td>
                        <td data-label={t('event_type')}>
                          {EVENT_LABELS[e.type][lang]} <span class="muted mono">{e.type}</span>
                        </td>
                        <td data-label={t('event_id')} class="mono">
                          {e.id}
                        </td>
                        <td data-label={t('event_data')} class="mono">
                          {JSON.stringify(e.data)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <Paging cursors={cursors} next={data.has_more ? data.next_cursor : ''} />
          </>
        )}
      </Loaded>
    </section>
  );
}
