/**
 * Account: the person's sessions (list, revoke), the TOTP second factor (set up with a QR code, confirm, turn
 * off), the API token for scripts (a new one shown once), and signing out (in the header).
 */
import { renderSVG } from 'uqr';
import { useState } from 'preact/hooks';
import { listSessions, revokeSession, rotateToken, totpConfirm, totpDisable, totpSetup } from '../../api/session';
import { Field, FormError } from '../../components/field';
import { Loaded, useLoad } from '../../components/status';
import { formatTime, useStrings } from '../../i18n';
import type { ScreenProps } from '../registry';
import { strings } from './strings';

function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await action();
    } catch (failure) {
      setError(failure);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

function Sessions({ current }: { current: string }) {
  const t = useStrings(strings);
  const list = useLoad(() => listSessions(), []);
  const action = useAction();
  return (
    <section class="card" aria-labelledby="sessions-title" id="sessions">
      <h2 id="sessions-title">{t('sessions')}</h2>
      <FormError error={action.error} fields={[]} />
      <Loaded load={list}>
        {(data) => (
          <ul class="plans">
            {data.items.map((s) => (
              <li key={s.session_id} class="plan" data-session={s.session_id}>
                <div>
                  <strong>{s.session_id === current || s.current ? t('this_session') : s.user_agent || s.session_id}</strong>
                  <p class="muted">{[s.ip, t('created', { time: formatTime(s.created_at) }), t('session_expires', { time: formatTime(s.expires_at) })].filter(Boolean).join(' · ')}</p>
                </div>
                {s.session_id === current || s.current ? null : (
                  <button type="button" class="btn secondary small" disabled={action.busy} onClick={() => void action.run(() => revokeSession(s.session_id)).then(list.reload)}>
                    {t('revoke')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Loaded>
    </section>
  );
}

function Totp({ enabled: initially }: { enabled: boolean }) {
  const t = useStrings(strings);
  const [enabled, setEnabled] = useState(initially);
  const [setup, setSetup] = useState<{ secret: string; otpauth_uri: string } | undefined>(undefined);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();

  const qr = setup ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(setup.otpauth_uri, { ecc: 'M' }))}` : '';
  return (
    <section class="card" aria-labelledby="totp-title" id="totp">
      <h2 id="totp-title">{t('totp')}</h2>
      <p>{enabled ? t('totp_on') : t('totp_off')}</p>
      {!enabled && !setup ? (
        <button type="button" class="btn" disabled={action.busy} onClick={() => void action.run(totpSetup).then((s) => s && setSetup(s))}>
          {t('totp_setup')}
        </button>
      ) : null}
      {!enabled && setup ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void action.run(() => totpConfirm(code)).then((ok) => ok && (setEnabled(true), setSetup(undefined), setCode('')));
          }}
        >
          <p>{t('totp_scan')}</p>
          <p class="qr">
            <img src={qr} alt={t('qr_alt')} width={200} height={200} />
          </p>
          <p>
            {t('key')}: <span class="secret" id="totp-secret">{setup.secret}</span>
          </p>
          <Field label={t('code')} name="code" error={action.error}>
            {(p) => <input {...p} type="text" inputMode="numeric" autoComplete="one-time-code" maxLength={8} value={code} onInput={(e) => setCode(e.currentTarget.value)} />}
          </Field>
          <button type="submit" class="btn" disabled={action.busy}>
            {t('totp_confirm')}
          </button>
        </form>
      ) : null}
      {enabled ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void action.run(() => totpDisable(password)).then((ok) => ok && (setEnabled(false), setPassword('')));
          }}
        >
          <Field label={t('password')} name="password" error={action.error}>
            {(p) => <input {...p} type="password" autoComplete="current-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />}
          </Field>
          <button type="submit" class="btn danger" disabled={action.busy}>
            {t('totp_disable')}
          </button>
        </form>
      ) : null}
      <FormError error={action.error} fields={['code', 'password']} />
    </section>
  );
}

function ApiToken() {
  const t = useStrings(strings);
  const [password, setPassword] = useState('');
  const [token, setToken] = useState('');
  const [copied, setCopied] = useState(false);
  const action = useAction();
  return (
    <section class="card" aria-labelledby="token-title" id="api-token">
      <h2 id="token-title">{t('token')}</h2>
      <p class="muted">{t('token_note')}</p>
      {token ? (
        <div role="status">
          <p>{t('new_token')}</p>
          <p class="secret" id="new-token">
            {token}
          </p>
          <button type="button" class="btn secondary small" onClick={() => void navigator.clipboard?.writeText(token).then(() => setCopied(true))}>
            {copied ? t('copied') : t('copy')}
          </button>
        </div>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void action.run(() => rotateToken(password)).then((answer) => answer && (setToken(answer.token), setPassword('')));
          }}
        >
          <Field label={t('password')} name="password" error={action.error}>
            {(p) => <input {...p} type="password" autoComplete="current-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />}
          </Field>
          <FormError error={action.error} fields={['password']} />
          <button type="submit" class="btn" disabled={action.busy}>
            {t('rotate')}
          </button>
        </form>
      )}
    </section>
  );
}

export default function Account({ session }: ScreenProps) {
  const t = useStrings(strings);
  return (
    <>
      <h1>{t('title')}</h1>
      <p class="muted">{t('signed_in_as', { name: session.user.email ? `${session.user.login} (${session.user.email})` : session.user.login })}</p>
      <Sessions current={session.session_id} />
      <Totp enabled={session.user.totp_enabled} />
      <ApiToken />
    </>
  );
}
