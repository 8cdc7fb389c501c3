/**
 * The reseller's own Apple developer accounts (their private pool): each with its state, slots per device
 * class, membership and certificate dates and alerts; connect one with an App Store Connect API key; rotate
 * its key, renew its certificate (the devices' new profiles follow in the background: the list is read again
 * every few seconds while a renewal runs, showing "renewing 37/80"), set the membership's renewal date, pause,
 * resume, retire. Every answer's message is the API's own.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, call, type OkData } from '../../api/client';
import { Field, FormError } from '../../components/field';
import { Loaded, useLoad } from '../../components/status';
import { LocalPaging } from '../../components/paging';
import { common } from '../../components/strings';
import { formatTime, useStrings } from '../../i18n';
import type { ScreenProps } from '../registry';
import { KeyFields, NO_KEY, type Key } from './key-fields';
import { strings } from './strings';

const loadAccounts = () => call(api.GET('/api/user/apple-accounts')).then((d) => d as Extract<typeof d, { accounts: unknown }>);
type Account = Awaited<ReturnType<typeof loadAccounts>>['accounts'][number];
type Action = 'rotate_key' | 'renew_certificate' | 'set_membership' | 'pause' | 'resume' | 'retire';
/** How often the list is read again while a renewal runs. */
const RENEWAL_POLL_MS = 5_000;
const PAGE = 20;

/** A write whose success message (the API's, localized) is shown: the answer's `msg` with its data. */
async function post(body: Record<string, unknown>): Promise<string> {
  const request = api.POST('/api/user/apple-accounts', { body: body as never });
  const result = await request;
  const envelope = result.data as { code?: number; msg?: string } | undefined;
  if (envelope?.code === 1) return envelope.msg ?? '';
  await call(Promise.resolve(result) as Promise<{ data?: OkData<unknown>; error?: unknown; response: Response }>);
  return '';
}

export default function AppleAccounts(_props: ScreenProps) {
  const t = useStrings(strings);
  const list = useLoad(loadAccounts, []);
  const [notice, setNotice] = useState('');
  const [page, setPage] = useState(0);
  // While a renewal runs, its progress is read again quietly (the list stays on screen meanwhile).
  const [fresh, setFresh] = useState<Awaited<ReturnType<typeof loadAccounts>> | undefined>(undefined);
  const shown = fresh ?? (list.state === 'ok' ? list.data : undefined);
  const renewing = shown?.accounts.some((a) => a.renewal?.state === 'running') ?? false;
  useEffect(() => {
    if (!renewing) return undefined;
    const timer = setInterval(() => void loadAccounts().then(setFresh, () => undefined), RENEWAL_POLL_MS);
    return () => clearInterval(timer);
  }, [renewing]);
  useEffect(() => setFresh(undefined), [list.state]);
  return (
    <section>
      <h1>{t('title')}</h1>
      <p class="muted">{t('intro')}</p>
      {notice ? (
        <p class="success" role="status" id="account-notice">
          {notice}
        </p>
      ) : null}
      <Loaded load={list}>
        {(loaded) => {
          const data = fresh ?? loaded;
          return (
          <>
            {data.accounts.length === 0 ? (
              <p class="card muted">{t('none')}</p>
            ) : (
              <ul class="plans" id="account-list">
                {data.accounts.slice(page * PAGE, (page + 1) * PAGE).map((a) => (
                  <AccountCard
                    key={a.account_id}
                    account={a}
                    onDone={(msg) => {
                      setNotice(msg);
                      list.reload();
                    }}
                  />
                ))}
              </ul>
            )}
            <LocalPaging page={page} setPage={setPage} size={PAGE} total={data.accounts.length} />
          </>
          );
        }}
      </Loaded>
      <Connect
        onConnected={(msg) => {
          setNotice(msg);
          list.reload();
        }}
      />
    </section>
  );
}

function AccountCard({ account: a, onDone }: { account: Account; onDone: (msg: string) => void }) {
  const t = useStrings(strings);
  const c = useStrings(common);
  const [open, setOpen] = useState<'' | 'rotate_key' | 'retire' | 'set_membership'>('');
  const [renews, setRenews] = useState('');
  const [key, setKey] = useState<Key>(NO_KEY);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const act = async (action: Action, extra: Record<string, unknown> = {}) => {
    setBusy(true);
    setError(undefined);
    try {
      const msg = await post({ account_id: a.account_id, action, ...extra });
      setOpen('');
      setKey(NO_KEY);
      onDone(msg);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const badge = { active: 'normal', failing: 'failed', revoked: 'revoked', retired: '' }[a.state];
  return (
    <li class="card" data-account={a.account_id} aria-labelledby={`acct-${a.account_id}`}>
      <div class="actions">
        <h2 id={`acct-${a.account_id}`} class="mono">
          {t('team', { team: a.team_id })}
        </h2>
        <span class={`badge ${badge}`} data-state={a.state}>
          {t(`state_${a.state}`)}
        </span>
        {a.paused ? <span class="badge processing">{t('paused')}</span> : null}
        {a.selling ? <span class="badge on">{t('selling')}</span> : null}
      </div>
      {a.alerts.length ? (
        <ul class="notice" aria-label={t('alerts')}>
          {a.alerts.map((alert) => (
            <li key={alert}>{t(`alert_${alert}`)}</li>
          ))}
        </ul>
      ) : null}
      <dl class="details">
        <dt>{t('mode')}</dt>
        <dd>{a.mode === 'instant' ? t('mode_instant') : t('mode_review')}</dd>
        <dt>{t('weight')}</dt>
        <dd>{a.weight}</dd>
        <dt>{t('tiers')}</dt>
        <dd>{a.tiers.join(', ')}</dd>
        <dt>{t('membership_renews_at')}</dt>
        <dd data-membership>{a.membership_renews_at ? formatTime(a.membership_renews_at) : t('unknown')}</dd>
        <dt>{t('certificate_expires')}</dt>
        <dd>{formatTime(a.certificate.expires_at)}</dd>
        {a.renewal ? (
          <>
            <dt>{t('renewal')}</dt>
            <dd data-renewal={a.renewal.state}>
              {a.renewal.state === 'running'
                ? t('renewal_running', { done: a.renewal.done, total: a.renewal.total })
                : a.renewal.state === 'done'
                  ? t('renewal_done', { done: a.renewal.done - a.renewal.skipped, skipped: a.renewal.skipped, at: formatTime(a.renewal.finished_at) })
                  : t('renewal_failed', { at: formatTime(a.renewal.finished_at) })}
            </dd>
          </>
        ) : null}
        <dt>{t('key_id')}</dt>
        <dd class="mono">{a.key_id}</dd>
        <dt>{t('account_id')}</dt>
        <dd class="mono">{a.account_id}</dd>
      </dl>
      <div class="table-wrap">
        <table class="slots">
          <caption class="visually-hidden">{t('slots')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('slots')}</th>
              <th scope="col">{t('used')}</th>
              <th scope="col">{t('free')}</th>
              <th scope="col">{t('limit')}</th>
            </tr>
          </thead>
          <tbody>
            {(['iphone', 'ipad', 'mac'] as const).map((cls) => (
              <tr key={cls} data-class={cls}>
                <th scope="row">{t(`class_${cls}`)}</th>
                <td>{a.slots[cls].used}</td>
                <td>{a.slots[cls].free}</td>
                <td>{a.slots[cls].limit}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {a.state !== 'retired' ? (
        <div class="actions">
          <button type="button" class="btn secondary small" aria-expanded={open === 'rotate_key'} onClick={() => setOpen(open === 'rotate_key' ? '' : 'rotate_key')}>
            {t('rotate_key')}
          </button>
          <button type="button" class="btn secondary small" disabled={busy || a.renewal?.state === 'running'} onClick={() => void act('renew_certificate')}>
            {t('renew_certificate')}
          </button>
          <button type="button" class="btn secondary small" aria-expanded={open === 'set_membership'} onClick={() => setOpen(open === 'set_membership' ? '' : 'set_membership')}>
            {t('set_membership')}
          </button>
          {a.paused ? (
            <button type="button" class="btn secondary small" disabled={busy} onClick={() => void act('resume')}>
              {t('resume')}
            </button>
          ) : (
            <button type="button" class="btn secondary small" disabled={busy} onClick={() => void act('pause')}>
              {t('pause')}
            </button>
          )}
          <button type="button" class="btn secondary small" aria-expanded={open === 'retire'} onClick={() => setOpen(open === 'retire' ? '' : 'retire')}>
            {t('retire')}
          </button>
        </div>
      ) : null}
      {open === 'rotate_key' ? (
        <form
          class="card"
          aria-label={t('rotate_key')}
          onSubmit={(e) => {
            e.preventDefault();
            void act('rotate_key', { ...key });
          }}
        >
          <p class="muted">{t('rotate_hint')}</p>
          <KeyFields value={key} onChange={setKey} error={error} />
          <button type="submit" class="btn" disabled={busy}>
            {t('rotate_key')}
          </button>
        </form>
      ) : null}
      {open === 'set_membership' ? (
        <form
          class="card"
          aria-label={t('set_membership')}
          onSubmit={(e) => {
            e.preventDefault();
            void act('set_membership', { membership_renews_at: renews ? Math.floor(new Date(`${renews}T00:00:00`).getTime() / 1000) : 0 });
          }}
        >
          <Field label={t('membership_renews_at')} name="membership_renews_at" error={error} hint={t('renews_hint')}>
            {(p) => <input {...p} type="date" value={renews} onInput={(e) => setRenews(e.currentTarget.value)} />}
          </Field>
          <button type="submit" class="btn" disabled={busy}>
            {t('save_membership')}
          </button>
        </form>
      ) : null}
      {open === 'retire' ? (
        <div class="notice" role="group" aria-label={t('retire')}>
          <p>{t('retire_confirm_text')}</p>
          <div class="actions">
            <button type="button" class="btn danger" disabled={busy} onClick={() => void act('retire')}>
              {t('retire_confirm')}
            </button>
            <button type="button" class="btn secondary" onClick={() => setOpen('')}>
              {c('cancel')}
            </button>
          </div>
        </div>
      ) : null}
      <FormError error={error} fields={open === 'rotate_key' ? ['issuer_id', 'key_id', 'private_key'] : open === 'set_membership' ? ['membership_renews_at'] : []} />
    </li>
  );
}

function Connect({ onConnected }: { onConnected: (msg: string) => void }) {
  const t = useStrings(strings);
  const [key, setKey] = useState<Key>(NO_KEY);
  const [mode, setMode] = useState<'instant' | 'review'>('instant');
  const [weight, setWeight] = useState('');
  const [tiers, setTiers] = useState('');
  const [renews, setRenews] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const msg = await post({
        ...key,
        mode,
        ...(weight.trim() ? { weight: weight.trim() } : {}),
        ...(tiers.trim() ? { tiers: tiers.trim() } : {}),
        ...(renews ? { membership_renews_at: Math.floor(new Date(`${renews}T00:00:00`).getTime() / 1000) } : {}),
      });
      setKey(NO_KEY);
      onConnected(msg);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" id="connect-form" onSubmit={submit} aria-labelledby="connect-title">
      <h2 id="connect-title">{t('connect')}</h2>
      <p class="muted">{t('connect_hint')}</p>
      <KeyFields value={key} onChange={setKey} error={error} />
      <div class="filters">
        <Field label={t('mode')} name="mode" error={error}>
          {(p) => (
            <select {...p} value={mode} onChange={(e) => setMode(e.currentTarget.value as 'instant' | 'review')}>
              <option value="instant">{t('mode_instant')}</option>
              <option value="review">{t('mode_review')}</option>
            </select>
          )}
        </Field>
        <Field label={t('weight')} name="weight" error={error} hint={t('weight_hint')}>
          {(p) => <input {...p} type="number" min={1} max={1000000} value={weight} onInput={(e) => setWeight(e.currentTarget.value)} />}
        </Field>
        <Field label={t('tiers')} name="tiers" error={error} hint={t('tiers_hint')}>
          {(p) => <input {...p} type="text" dir="ltr" value={tiers} onInput={(e) => setTiers(e.currentTarget.value)} />}
        </Field>
        <Field label={t('membership_renews_at')} name="membership_renews_at" error={error} hint={t('renews_hint')}>
          {(p) => <input {...p} type="date" value={renews} onInput={(e) => setRenews(e.currentTarget.value)} />}
        </Field>
      </div>
      <FormError error={error} fields={['issuer_id', 'key_id', 'private_key', 'mode', 'weight', 'tiers', 'membership_renews_at']} />
      <button type="submit" class="btn" disabled={busy}>
        {busy ? t('connecting') : t('connect_button')}
      </button>
    </form>
  );
}
