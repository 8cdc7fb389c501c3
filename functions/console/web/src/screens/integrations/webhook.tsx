/**
 * The webhook: set it (URL, the event types, the low-balance threshold, a new signing secret shown once),
 * remove it, send a test ping; its deliveries' state as the API keeps it (last attempt, status, error,
 * failure streak, disabled), its latest delivery attempts, and the pings sent from this page with what the
 * receiver answered (the API does not list pings among the deliveries).
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Field, FormError } from '../../components/field';
import { Loaded, useLoad } from '../../components/status';
import { formatTime, useLang, useStrings } from '../../i18n';
import { EVENT_LABELS, EVENT_TYPES, type EventType } from './event-types';
import { strings } from './strings';

const loadWebhook = () => call(api.GET('/api/user/webhook')).then((d) => d as Extract<typeof d, { balance_low_threshold: number }>);
type WebhookData = Awaited<ReturnType<typeof loadWebhook>>;

interface Ping {
  at: number;
  event_id: string;
  ok: boolean;
  status: number;
  error: string | null;
}

export function Webhook() {
  const state = useLoad(loadWebhook, []);
  return <Loaded load={state}>{(initial) => <WebhookPanel initial={initial} />}</Loaded>;
}

/** Read again after a change without leaving the page: a secret shown once and the pings stay on screen. */
function WebhookPanel({ initial }: { initial: WebhookData }) {
  const t = useStrings(strings);
  const [data, setData] = useState(initial);
  const [refreshError, setRefreshError] = useState<unknown>(undefined);
  const refresh = () => {
    setRefreshError(undefined);
    loadWebhook().then(setData, setRefreshError);
  };
  const [pings, setPings] = useState<Ping[]>([]);
  const [pingError, setPingError] = useState<unknown>(undefined);
  const [pinging, setPinging] = useState(false);

  const ping = async () => {
    setPinging(true);
    setPingError(undefined);
    try {
      const answer = await call(api.POST('/api/user/webhook/test'));
      setPings((p) => [{ at: Math.floor(Date.now() / 1000), ...answer }, ...p].slice(0, 20));
      refresh();
    } catch (err) {
      setPingError(err);
    } finally {
      setPinging(false);
    }
  };

  return (
    <>
      <WebhookForm data={data} onSaved={refresh} />
      <FormError error={refreshError} fields={[]} />
      <section class="card" aria-labelledby="deliveries-title" id="webhook-deliveries">
        <h2 id="deliveries-title">{t('deliveries')}</h2>
        {data.webhook ? <DeliveryState webhook={data.webhook} /> : <p class="muted">{t('no_webhook')}</p>}
        {data.webhook ? <RecentDeliveries deliveries={data.webhook.recent_deliveries} /> : null}
        <div class="actions">
          <button type="button" class="btn" id="webhook-test" disabled={pinging || !data.webhook} onClick={() => void ping()}>
            {pinging ? t('test_sending') : t('test_send')}
          </button>
        </div>
        <FormError error={pingError} fields={[]} />
        {pings.length ? (
          <div class="table-wrap">
            <table class="cards" id="ping-table">
              <caption class="visually-hidden">{t('pings')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('sent_at')}</th>
                  <th scope="col">{t('event_id')}</th>
                  <th scope="col">{t('result')}</th>
                  <th scope="col">{t('http_status')}</th>
                </tr>
              </thead>
              <tbody>
                {pings.map((p) => (
                  <tr key={p.event_id} data-ok={String(p.ok)}>
                    <td data-label={t('sent_at')}>{formatTime(p.at)}</td>
                    <td data-label={t('event_id')} class="mono">
                      {p.event_id}
                    </td>
                    <td data-label={t('result')}>
                      <span class={`badge ${p.ok ? 'normal' : 'failed'}`}>{p.ok ? t('delivered') : t('failed')}</span>
                      {p.error ? <span class="muted mono"> {p.error}</span> : null}
                    </td>
                    <td data-label={t('http_status')}>{p.status || '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
    </>
  );
}

type Delivery = NonNullable<WebhookData['webhook']>['recent_deliveries'][number];

/** The API's latest attempts, newest first: when, which event, which attempt, and what the receiver answered. */
function RecentDeliveries({ deliveries }: { deliveries: Delivery[] }) {
  const t = useStrings(strings);
  const lang = useLang();
  return (
    <>
      <h3 id="recent-deliveries-title">{t('recent_deliveries')}</h3>
      {deliveries.length === 0 ? (
        <p class="muted" id="no-deliveries">
          {t('no_deliveries')}
        </p>
      ) : (
        <div class="table-wrap">
          <table class="cards" id="delivery-table" aria-labelledby="recent-deliveries-title">
            <thead>
              <tr>
                <th scope="col">{t('event_time')}</th>
                <th scope="col">{t('event_type')}</th>
                <th scope="col">{t('attempt')}</th>
                <th scope="col">{t('result')}</th>
                <th scope="col">{t('http_status')}</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr key={`${d.event_id}-${d.attempt}-${d.at}`} data-event={d.event_id} data-ok={String(d.ok)}>
                  <td data-label={t('event_time')}>{formatTime(d.at)}</td>
                  <td data-label={t('event_type')}>
                    {(EVENT_LABELS as Record<string, Record<string, string> | undefined>)[d.type]?.[lang] ?? d.type} <span class="muted mono">{d.type}</span>
                  </td>
                  <td data-label={t('attempt')}>{d.attempt}</td>
                  <td data-label={t('result')}>
                    <span class={`badge ${d.ok ? 'normal' : 'failed'}`}>{d.ok ? t('delivered') : t('failed')}</span>
                    {d.error ? <span class="muted mono"> {d.error}</span> : null}
                  </td>
                  <td data-label={t('http_status')}>{d.status || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function DeliveryState({ webhook }: { webhook: NonNullable<WebhookData['webhook']> }) {
  const t = useStrings(strings);
  const time = (s: number) => (s ? formatTime(s) : '—');
  return (
    <dl class="details" id="delivery-state">
      <dt>{t('state')}</dt>
      <dd>
        <span class={`badge ${webhook.enabled ? 'normal' : 'failed'}`} id="webhook-enabled">
          {webhook.enabled ? t('enabled') : t('disabled', { at: time(webhook.disabled_at) })}
        </span>
      </dd>
      <dt>{t('last_attempt')}</dt>
      <dd>{time(webhook.last_attempt_at)}</dd>
      <dt>{t('last_success')}</dt>
      <dd>{time(webhook.last_success_at)}</dd>
      <dt>{t('http_status')}</dt>
      <dd id="last-status">{webhook.last_status || '—'}</dd>
      <dt>{t('last_error')}</dt>
      <dd class="mono">{webhook.last_error ?? '—'}</dd>
      <dt>{t('failures')}</dt>
      <dd>{webhook.consecutive_failures ? t('failures_since', { n: webhook.consecutive_failures, since: time(webhook.failing_since) }) : '0'}</dd>
    </dl>
  );
}

function WebhookForm({ data, onSaved }: { data: WebhookData; onSaved: () => void }) {
  const t = useStrings(strings);
  const lang = useLang();
  const [url, setUrl] = useState(data.webhook?.url ?? '');
  const [types, setTypes] = useState<Set<EventType>>(() => new Set((data.webhook?.events ?? EVENT_TYPES) as EventType[]));
  const [threshold, setThreshold] = useState(String(data.balance_low_threshold));
  const [rotate, setRotate] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState('');
  const [notice, setNotice] = useState('');

  const toggle = (type: EventType) => {
    const next = new Set(types);
    if (next.has(type)) next.delete(type);
    else next.add(type);
    setTypes(next);
  };
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setNotice('');
    try {
      const body = {
        url: url.trim(),
        // Every type: left out, so types the API adds later are delivered too.
        ...(types.size === EVENT_TYPES.length ? {} : { events: [...types] }),
        balance_low_threshold: threshold.trim() === '' ? 0 : threshold.trim(),
        ...(rotate ? { rotate_secret: true } : {}),
      };
      const answer = (await call(api.PUT('/api/user/webhook', { body }))) as WebhookData;
      setSecret(answer.secret ?? '');
      setRotate(false);
      setNotice(t('saved'));
      onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await call(api.DELETE('/api/user/webhook'));
      setUrl('');
      setSecret('');
      onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" id="webhook-form" onSubmit={save} aria-labelledby="webhook-title">
      <h2 id="webhook-title">{t('tab_webhook')}</h2>
      <p class="muted">{t('webhook_hint')}</p>
      <Field label={t('url')} name="url" error={error}>
        {(p) => <input {...p} type="url" dir="ltr" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />}
      </Field>
      <fieldset id="webhook-events" aria-describedby="events-hint">
        <legend>{t('events')}</legend>
        <small id="events-hint" class="muted">
          {t('events_hint')}
        </small>
        <ul class="states">
          {EVENT_TYPES.map((type) => (
            <li key={type}>
              <label>
                <input type="checkbox" name="events" value={type} checked={types.has(type)} onChange={() => toggle(type)} /> {EVENT_LABELS[type][lang]}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <Field label={t('threshold')} name="balance_low_threshold" error={error} hint={t('threshold_hint')}>
        {(p) => <input {...p} type="number" min={0} value={threshold} onInput={(e) => setThreshold(e.currentTarget.value)} />}
      </Field>
      <label class="actions">
        <input type="checkbox" checked={rotate} onChange={(e) => setRotate(e.currentTarget.checked)} /> {t('rotate_secret')}
      </label>
      <FormError error={error} fields={['url', 'balance_low_threshold']} />
      {notice ? (
        <p class="success" role="status">
          {notice}
        </p>
      ) : null}
      {secret ? (
        <div class="notice" role="status" id="webhook-secret">
          <p>{t('secret_once')}</p>
          <p class="secret">{secret}</p>
        </div>
      ) : null}
      <div class="actions">
        <button type="submit" class="btn" disabled={busy}>
          {t('save')}
        </button>
        {data.webhook ? (
          <button type="button" class="btn secondary" disabled={busy} onClick={() => void remove()}>
            {t('remove')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
