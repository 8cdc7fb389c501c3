/**
 * Sign-in as a person (name or e-mail, password, and the TOTP code when the API asks for it), and an
 * invitation link's password (`#/invite/<token>`). Every refusal is the API's own localized message; a locked
 * account also says until when.
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { acceptInvite, signIn, type Session } from '../api/session';
import { Field, FormError } from '../components/field';
import { formatTime, useStrings } from '../i18n';
import type { Route } from '../router';
import { strings } from './strings';

export function SignIn({ route, notice, onSignedIn }: { route: Route; notice?: string; onSignedIn: (s: Session) => void }) {
  const t = useStrings(strings);
  const invite = route.segments[0] === 'invite' ? route.segments[1] : undefined;
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [askTotp, setAskTotp] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  // Why the form is shown (a session that ended) stands until the person tries again.
  const [showNotice, setShowNotice] = useState(true);

  const submit = async (e: Event) => {
    e.preventDefault();
    setShowNotice(false);
    setBusy(true);
    setError(undefined);
    try {
      const session = invite ? await acceptInvite(invite, password) : await signIn(login, password, askTotp ? totp : undefined);
      // The spent invitation leaves the history (replaced, not pushed); the route moves to the start.
      if (invite) location.replace('#/');
      onSignedIn(session);
    } catch (failure) {
      if (failure instanceof ApiError && failure.error === 'totp_required') setAskTotp(true);
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const lockedUntil = error instanceof ApiError && error.error === 'account_locked' && typeof error.data.locked_until === 'string' ? error.data.locked_until : undefined;
  return (
    <section class="card narrow sign-in">
      <h1>{invite ? t('invite_title') : t('title')}</h1>
      {notice && showNotice ? (
        <p class="notice" role="status">
          {notice}
        </p>
      ) : null}
      {invite ? <p class="muted">{t('invite_note')}</p> : null}
      <form onSubmit={submit} noValidate>
        {invite ? null : (
          <Field label={t('login')} name="login" error={error}>
            {(p) => <input {...p} type="text" autoComplete="username" required value={login} onInput={(e) => setLogin(e.currentTarget.value)} />}
          </Field>
        )}
        <Field label={invite ? t('new_password') : t('password')} name="password" error={error}>
          {(p) => <input {...p} type="password" autoComplete={invite ? 'new-password' : 'current-password'} required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />}
        </Field>
        {askTotp && !invite ? (
          <Field label={t('totp')} name="totp" error={error} hint={t('totp_hint')}>
            {(p) => <input {...p} type="text" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]*" maxLength={8} value={totp} onInput={(e) => setTotp(e.currentTarget.value)} />}
          </Field>
        ) : null}
        {lockedUntil ? (
          <p class="form-error" role="alert" id="locked-until">
            {/* The API's own message, its machine time shown as a local one; or ours when it names no time. */}
            {error instanceof ApiError && error.message.includes(lockedUntil) ? error.message.replace(lockedUntil, formatTime(lockedUntil)) : t('locked_until', { time: formatTime(lockedUntil) })}
          </p>
        ) : (
          <FormError error={error} fields={['login', 'password', 'totp']} />
        )}
        <button type="submit" class="btn" disabled={busy}>
          {busy ? t('working') : invite ? t('invite_submit') : t('submit')}
        </button>
      </form>
    </section>
  );
}
