/**
 * The frame: who is signed in (the session, recovered from the cookie on load), the navigation built from the
 * screen registry, the language picker, and the screen the route names. Every state has something on
 * screen: checking the session, the sign-in form, a failure with a retry, a screen loading.
 */
import type { ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, onSessionEnd } from './api/client';
import { currentSession, forgetSession, maybeSignedIn, signOut, type Session } from './api/session';
import { ErrorBox, Loading } from './components/status';
import { common } from './components/strings';
import { languageNames, languages, setLang, useLang, useStrings, type Lang } from './i18n';
import { hrefOf, useRoute, type Route } from './router';
import { screenFor, screens, type ScreenMeta, type ScreenProps } from './screens/registry';

type Auth = { state: 'checking' } | { state: 'out'; notice?: string } | { state: 'in'; session: Session } | { state: 'error'; error: unknown };

function LanguagePicker() {
  const lang = useLang();
  const t = useStrings(common);
  return (
    <label class="lang">
      <span class="visually-hidden">{t('language')}</span>
      <select value={lang} onChange={(e) => setLang((e.currentTarget as HTMLSelectElement).value as Lang)}>
        {languages.map((l) => (
          <option key={l} value={l} lang={l}>
            {languageNames[l]}
          </option>
        ))}
      </select>
    </label>
  );
}

const loadedScreens = new Map<string, ComponentType<ScreenProps>>();

/** Loads a screen's code on first use; a failed load (offline) says so with a retry. */
function ScreenView({ meta, session, route }: { meta: ScreenMeta; session: Session; route: Route }) {
  const [, setLoaded] = useState(0);
  const [error, setError] = useState<unknown>(undefined);
  const Component = loadedScreens.get(meta.id);
  useEffect(() => {
    if (Component) return;
    setError(undefined);
    meta.load().then(
      (module) => {
        loadedScreens.set(meta.id, module.default);
        setLoaded((n) => n + 1);
      },
      setError,
    );
  }, [meta, Component]);
  if (error) return <ErrorBox error={error} onRetry={() => setError(undefined)} />;
  if (!Component) return <Loading />;
  return <Component session={session} rest={route.segments.slice(1)} query={route.query} />;
}

function Nav({ current, label }: { current: string | undefined; label: string }) {
  const lang = useLang();
  return (
    <nav class="nav" aria-label={label}>
      <ul>
        {screens.map((screen) => (
          <li key={screen.id}>
            <a href={hrefOf([screen.id])} aria-current={screen.id === current ? 'page' : undefined}>
              <svg viewBox="0 0 24 24" aria-hidden="true" width="20" height="20">
                <path d={screen.icon} />
              </svg>
              <span>{screen.title[lang]}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

let SignIn: ComponentType<{ route: Route; notice?: string; onSignedIn: (s: Session) => void }> | undefined;

function SignInView(props: { route: Route; notice?: string; onSignedIn: (s: Session) => void }) {
  const [, setLoaded] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  useEffect(() => {
    if (SignIn) return;
    import('./sign-in/sign-in').then((m) => {
      SignIn = m.SignIn;
      setLoaded(true);
    }, setError);
  }, [error]);
  if (error) return <ErrorBox error={error} onRetry={() => setError(undefined)} />;
  if (!SignIn) return <Loading />;
  return <SignIn {...props} />;
}

export function App() {
  const t = useStrings(common);
  const route = useRoute();
  const [auth, setAuth] = useState<Auth>(() => (maybeSignedIn() ? { state: 'checking' } : { state: 'out' }));
  const main = useRef<HTMLElement>(null);

  const check = () => {
    if (!maybeSignedIn()) return setAuth({ state: 'out' });
    setAuth({ state: 'checking' });
    currentSession().then(
      (session) => setAuth({ state: 'in', session }),
      // 401: no live session (ended, expired): the form. Anything else is a failure to show, with a retry.
      (error: unknown) => setAuth(error instanceof ApiError && error.status === 401 ? { state: 'out' } : { state: 'error', error }),
    );
  };
  useEffect(check, []);
  useEffect(() => onSessionEnd((error) => (forgetSession(), setAuth({ state: 'out', notice: error.message }))), []);
  // A new screen: the reader starts at its content (keyboard and screen readers).
  useEffect(() => main.current?.focus({ preventScroll: true }), [route.segments.join('/')]);

  const header = (
    <header class="top">
      <a class="brand" href="#/" aria-label={t('app_name')}>
        <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
          <rect width="32" height="32" rx="7" />
          <path d="M10 23V9h6a4.5 4.5 0 0 1 0 9h-3.5M16 18l5 5" />
        </svg>
        <span>{t('app_name')}</span>
      </a>
      <div class="top-actions">
        {auth.state === 'in' ? <span class="who">{auth.session.user.name}</span> : null}
        <LanguagePicker />
        {auth.state === 'in' ? (
          <button type="button" class="btn secondary small" onClick={() => void signOut().finally(() => ((location.hash = '#/'), setAuth({ state: 'out' })))}>
            {t('sign_out')}
          </button>
        ) : null}
      </div>
    </header>
  );
  const skip = (
    <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), main.current?.focus())}>
      {t('skip')}
    </a>
  );

  if (auth.state !== 'in') {
    document.title = t('app_name');
    return (
      <div class="shell signed-out">
        {skip}
        {header}
        <main id="main" ref={main} tabIndex={-1}>
          {auth.state === 'checking' ? <Loading /> : null}
          {auth.state === 'error' ? <ErrorBox error={auth.error} onRetry={check} /> : null}
          {auth.state === 'out' ? <SignInView route={route} {...(auth.notice ? { notice: auth.notice } : {})} onSignedIn={(session) => setAuth({ state: 'in', session })} /> : null}
        </main>
      </div>
    );
  }
  return <SignedIn session={auth.session} route={route} header={header} skip={skip} main={main} />;
}

function SignedIn({ session, route, header, skip, main }: { session: Session; route: Route; header: preact.JSX.Element; skip: preact.JSX.Element; main: preact.RefObject<HTMLElement | null> }) {
  const t = useStrings(common);
  const lang = useLang();
  const meta = screenFor(route);
  // The tab says where the reader is, in their language.
  useEffect(() => void (document.title = `${meta ? meta.title[lang] : t('not_found')} · ${t('app_name')}`), [meta, lang]);
  return (
    <div class="shell">
      {skip}
      {header}
      <Nav current={meta?.id} label={t('menu')} />
      <main id="main" ref={main} tabIndex={-1}>
        {meta ? <ScreenView key={meta.id} meta={meta} session={session} route={route} /> : <ErrorBox error={new ApiError(404, 404, t('not_found'), 'not_found', [], {})} />}
      </main>
    </div>
  );
}
