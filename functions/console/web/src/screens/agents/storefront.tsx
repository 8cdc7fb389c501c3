/**
 * An agent's storefront: its name, logo, colours, notice, contact, buy link and own domain (claimed, then
 * verified by its DNS TXT record), with a preview of the page its customers get. The parent edits its agent's
 * (`agent_id`); an agent signed in edits its own. Every refusal is the API's message beside its field.
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../../api/client';
import { Field, FormError } from '../../components/field';
import { useStrings } from '../../i18n';
import { agentsCall } from './agents-api';
import { storefrontStrings as strings } from './storefront-strings';

type Storefront = Extract<Awaited<ReturnType<typeof agentsCall>>, { domain_state: unknown }>;
const FIELDS = ['name', 'logo_url', 'primary_color', 'header_color', 'notice', 'contact', 'buy_url', 'domain'] as const;
type FieldName = (typeof FIELDS)[number];

export const loadStorefront = (agentId: string | undefined) => agentsCall({ ...(agentId ? { agent_id: agentId } : {}), storefront: {} }).then((d) => d as Storefront);

/** The caller's own storefront when it is an agent; undefined for a reseller of the operator (it has none). */
export const loadOwnStorefront = () => loadStorefront(undefined).catch((err: unknown) => (err instanceof ApiError && err.error === 'storefront_not_agent' ? undefined : Promise.reject(err)));

export function StorefrontSection({ agentId, initial, own }: { agentId: string | undefined; initial: Storefront; own: boolean }) {
  const t = useStrings(strings);
  const [store, setStore] = useState(initial);
  const [values, setValues] = useState<Record<FieldName, string>>(() => Object.fromEntries(FIELDS.map((f) => [f, initial[f]])) as Record<FieldName, string>);
  const [error, setError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);

  const send = async (change: Record<string, unknown>, done: string) => {
    setBusy(true);
    setError(undefined);
    setNotice('');
    try {
      const next = (await agentsCall({ ...(agentId ? { agent_id: agentId } : {}), storefront: change })) as Storefront;
      setStore(next);
      setValues(Object.fromEntries(FIELDS.map((f) => [f, next[f]])) as Record<FieldName, string>);
      setNotice(done);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const input = (name: FieldName, extra: Record<string, unknown> = {}) => (p: { id: string; name: string }) => (
    <input {...p} {...extra} type="text" value={values[name]} onInput={(e) => setValues({ ...values, [name]: e.currentTarget.value })} />
  );
  const stateLabel = store.domain_state === 'active' ? t('state_active') : store.domain_state === 'pending' ? t('state_pending') : t('state_none');

  return (
    <form
      class="card"
      id="storefront"
      aria-labelledby="storefront-title"
      onSubmit={(e) => {
        e.preventDefault();
        void send(Object.fromEntries(FIELDS.map((f) => [f, values[f].trim()])), t('saved'));
      }}
    >
      <h2 id="storefront-title">{own ? t('own_title') : t('title')}</h2>
      <p class="muted">{t('intro')}</p>
      {notice ? (
        <p class="success" role="status" id="storefront-notice">
          {notice}
        </p>
      ) : null}
      <div class="filters">
        <Field label={t('name')} name="name" error={error} hint={t('name_hint')}>
          {input('name', { maxLength: 64 })}
        </Field>
        <Field label={t('logo_url')} name="logo_url" error={error}>
          {input('logo_url', { dir: 'ltr', inputMode: 'url' })}
        </Field>
        <Field label={t('primary_color')} name="primary_color" error={error} hint={t('primary_hint')}>
          {input('primary_color', { dir: 'ltr', placeholder: '#0b5fff' })}
        </Field>
        <Field label={t('header_color')} name="header_color" error={error}>
          {input('header_color', { dir: 'ltr', placeholder: '#102a43' })}
        </Field>
        <Field label={t('contact')} name="contact" error={error}>
          {input('contact', { maxLength: 200 })}
        </Field>
        <Field label={t('buy_url')} name="buy_url" error={error}>
          {input('buy_url', { dir: 'ltr', inputMode: 'url' })}
        </Field>
      </div>
      <Field label={t('notice')} name="notice" error={error}>
        {(p) => <textarea {...p} rows={3} maxLength={500} value={values.notice} onInput={(e) => setValues({ ...values, notice: e.currentTarget.value })} />}
      </Field>
      <Field label={t('domain')} name="domain" error={error} hint={t('domain_hint')}>
        {input('domain', { dir: 'ltr', placeholder: 'shop.example.com' })}
      </Field>
      <p>
        <span class={`badge ${store.domain_state === 'active' ? 'on' : 'off'}`} id="storefront-domain-state">
          {stateLabel}
        </span>
      </p>
      {store.domain_proof ? (
        <p class="muted" id="storefront-proof">
          {t('proof')} <code dir="ltr">{`${store.domain_proof.name} TXT "${store.domain_proof.value}"`}</code>
        </p>
      ) : null}
      <FormError error={error} fields={FIELDS} />
      <div class="actions">
        <button type="submit" class="btn" disabled={busy}>
          {t('save')}
        </button>
        {store.domain_state === 'pending' ? (
          <button type="button" class="btn secondary" id="storefront-verify" disabled={busy} onClick={() => void send({ verify_domain: true }, t('verified'))}>
            {t('verify')}
          </button>
        ) : null}
        <a class="btn secondary" id="storefront-preview" href={store.pages.customer_page} target="_blank" rel="noopener">
          {t('preview')}
        </a>
      </div>
    </form>
  );
}
