/**
 * A source's settings: every field the update route takes, each starting from the value the read route
 * answers. Only the fields changed here are sent (the route changes only what it is given), so a save never
 * rewrites what the person did not touch. The feed preview reads the public feed as a client would.
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Field, FormError } from '../../components/field';
import { ErrorBox, Loading } from '../../components/status';
import { useStrings } from '../../i18n';
import type { SourceData } from './source-data';
import { strings } from './strings';

type Key = Parameters<ReturnType<typeof useStrings<keyof typeof strings>>>[0];
const TEXT = ['name', 'identifier', 'message', 'source_icon', 'pay_url', 'subtitle', 'description', 'header_url', 'website', 'tint_color', 'featured_apps'] as const;
const MULTILINE = new Set(['message', 'description']);
const URLS = new Set(['source_icon', 'pay_url', 'header_url', 'website']);
const BITS = ['encrypt_enabled', 'open_black', 'open_black2'] as const;
const ALERT = ['alert_enabled', 'alert_webhook_url', 'alert_interval_minutes', 'alert_failure_threshold', 'alert_notify_recovery', 'alert_secret'] as const;
type Name = (typeof TEXT)[number] | (typeof BITS)[number] | 'device_proof' | (typeof ALERT)[number];

function initial(s: SourceData): Record<Name, string> {
  const alert = s.health_alert as Record<string, unknown>;
  const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  return {
    name: s.name,
    identifier: s.identifier,
    message: s.message,
    source_icon: s.source_icon,
    pay_url: s.pay_url,
    subtitle: s.subtitle,
    description: s.description,
    header_url: s.header_url,
    website: s.website,
    tint_color: s.tint_color,
    featured_apps: s.featured_apps.join(', '),
    encrypt_enabled: String(s.encrypt_enabled),
    open_black: String(s.open_black),
    open_black2: String(s.open_black2),
    device_proof: s.device_proof,
    alert_enabled: alert.enabled ? '1' : '0',
    alert_webhook_url: str(alert.webhook_url),
    alert_interval_minutes: str(alert.interval_minutes),
    alert_failure_threshold: str(alert.failure_threshold),
    alert_notify_recovery: alert.notify_recovery ? '1' : '0',
    alert_secret: str(alert.secret),
  };
}

export function Settings({ source, onSaved }: { source: SourceData; onSaved: () => void }) {
  const t = useStrings(strings);
  const [values, setValues] = useState(() => initial(source));
  const [changed, setChanged] = useState<Set<Name>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [saved, setSaved] = useState(false);
  const [feed, setFeed] = useState<{ state: 'idle' } | { state: 'loading' } | { state: 'ok'; text: string; status: number } | { state: 'error'; error: unknown }>({ state: 'idle' });

  const set = (name: Name) => (e: Event) => {
    setValues({ ...values, [name]: (e.currentTarget as HTMLInputElement).value });
    setChanged(new Set(changed).add(name));
    setSaved(false);
  };

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setSaved(false);
    const body: Record<string, unknown> = {};
    for (const name of TEXT) {
      if (!changed.has(name)) continue;
      body[name] =
        name === 'featured_apps'
          ? values.featured_apps
              .split(/[\s,]+/)
              .map((v) => v.trim())
              .filter(Boolean)
          : values[name];
    }
    for (const name of BITS) if (changed.has(name)) body[name] = Number(values[name]);
    if (changed.has('device_proof')) body.device_proof = values.device_proof;
    if (ALERT.some((n) => changed.has(n))) {
      body.health_alert = {
        enabled: values.alert_enabled === '1',
        notify_recovery: values.alert_notify_recovery === '1',
        ...(values.alert_webhook_url ? { webhook_url: values.alert_webhook_url } : {}),
        ...(values.alert_interval_minutes ? { interval_minutes: Number(values.alert_interval_minutes) } : {}),
        ...(values.alert_failure_threshold ? { failure_threshold: Number(values.alert_failure_threshold) } : {}),
        ...(values.alert_secret ? { secret: values.alert_secret } : {}),
      };
    }
    try {
      await call(api.PATCH('/api/appstore/manage/sources/{source_id}', { params: { path: { source_id: source.source_id } }, body: body as never }));
      setChanged(new Set());
      setSaved(true);
      onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const preview = async () => {
    setFeed({ state: 'loading' });
    try {
      const { data, response } = await api.GET('/api/rjy/{source_id}/appstore', { params: { path: { source_id: source.source_id }, query: {} }, parseAs: 'text', cache: 'no-store' });
      const text = String(data ?? '');
      let pretty = text;
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // Not JSON (an encrypted feed): shown as it came.
      }
      setFeed({ state: 'ok', text: pretty, status: response.status });
    } catch (err) {
      setFeed({ state: 'error', error: err });
    }
  };

  const text = (name: (typeof TEXT)[number]) => (
    <Field key={name} label={t(`set_${name}` as Key)} name={name} error={error} hint={name === 'featured_apps' ? t('set_featured_apps_hint') : undefined}>
      {(p) =>
        MULTILINE.has(name) ? (
          <textarea {...p} rows={4} value={values[name]} onInput={set(name)} />
        ) : (
          <input {...p} type={(URLS.has(name) ? 'url' : 'text') as 'text'} value={values[name]} onInput={set(name)} {...(URLS.has(name) || name === 'tint_color' ? { dir: 'ltr' } : {})} />
        )
      }
    </Field>
  );
  const bit = (name: (typeof BITS)[number] | 'alert_enabled' | 'alert_notify_recovery', fieldName: string = name) => (
    <Field key={name} label={t(`set_${name}` as Key)} name={fieldName} error={error}>
      {(p) => (
        <select {...p} value={values[name]} onChange={set(name)}>
          <option value="1">{t('on')}</option>
          <option value="0">{t('off')}</option>
        </select>
      )}
    </Field>
  );
  const alertText = (name: 'alert_webhook_url' | 'alert_interval_minutes' | 'alert_failure_threshold' | 'alert_secret', kind: 'url' | 'number' | 'text') => (
    <Field key={name} label={t(`set_${name}` as Key)} name={`health_alert.${name.slice(6)}`} error={error}>
      {(p) => <input {...p} type={kind as 'text'} dir="ltr" value={values[name]} onInput={set(name)} {...(kind === 'number' ? { min: 1 } : {})} />}
    </Field>
  );

  return (
    <>
      <form class="card" id="source-settings" onSubmit={save} aria-labelledby="settings-title">
        <h2 id="settings-title">{t('tab_settings')}</h2>
        <div class="filters">
          {text('name')}
          {text('identifier')}
          {text('source_icon')}
          {text('pay_url')}
          {bit('encrypt_enabled')}
          {bit('open_black')}
          {bit('open_black2')}
          <Field label={t('set_device_proof')} name="device_proof" error={error}>
            {(p) => (
              <select {...p} value={values.device_proof} onChange={set('device_proof')}>
                <option value="optional">{t('proof_optional')}</option>
                <option value="required">{t('proof_required')}</option>
              </select>
            )}
          </Field>
        </div>
        {text('message')}
        <h3>{t('presentation')}</h3>
        <p class="muted">{t('presentation_hint')}</p>
        <div class="filters">
          {text('subtitle')}
          {text('header_url')}
          {text('website')}
          {text('tint_color')}
          {text('featured_apps')}
        </div>
        {text('description')}
        <fieldset>
          <legend>
            <h3>{t('health_alert')}</h3>
          </legend>
          <div class="filters">
            {bit('alert_enabled', 'health_alert.enabled')}
            {alertText('alert_webhook_url', 'url')}
            {alertText('alert_interval_minutes', 'number')}
            {alertText('alert_failure_threshold', 'number')}
            {bit('alert_notify_recovery', 'health_alert.notify_recovery')}
            {alertText('alert_secret', 'text')}
          </div>
        </fieldset>
        <FormError error={error} fields={[...TEXT, ...BITS, 'device_proof', 'health_alert.webhook_url', 'health_alert.interval_minutes', 'health_alert.failure_threshold', 'health_alert.secret', 'health_alert.enabled', 'health_alert.notify_recovery']} />
        {saved ? (
          <p class="success" role="status">
            {t('saved')}
          </p>
        ) : null}
        <div class="actions">
          <button type="submit" class="btn" disabled={busy || changed.size === 0}>
            {t('save')}
          </button>
          <button type="button" class="btn secondary" id="feed-preview-button" onClick={() => void preview()}>
            {t('feed_preview')}
          </button>
        </div>
      </form>
      {feed.state === 'loading' ? <Loading /> : null}
      {feed.state === 'error' ? <ErrorBox error={feed.error} onRetry={() => void preview()} /> : null}
      {feed.state === 'ok' ? (
        <section class="card" aria-labelledby="feed-title">
          <h2 id="feed-title">{t('feed_preview_title', { status: feed.status })}</h2>
          <pre class="secret" id="feed-preview" tabIndex={0}>
            {feed.text}
          </pre>
        </section>
      ) : null}
    </>
  );
}
