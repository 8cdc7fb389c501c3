/** Loading and failure states: a screen is never blank while it waits or after a call failed. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { useStrings } from '../i18n';
import { common } from './strings';

export function Loading() {
  const t = useStrings(common);
  return (
    <p class="loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      {t('loading')}
    </p>
  );
}

/** The API's own localized message when it answered; the UI's words when nothing answered. */
export function errorMessage(error: unknown, t: ReturnType<typeof useStrings<keyof typeof common>>): string {
  if (error instanceof ApiError && error.message) return error.message;
  if (error instanceof ApiError) return t('unexpected');
  return t('network_error');
}

export function ErrorBox({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const t = useStrings(common);
  return (
    <div class="error-box" role="alert">
      <p>{errorMessage(error, t)}</p>
      {error instanceof ApiError && error.error ? <p class="muted mono">{error.error}</p> : null}
      {onRetry ? (
        <button type="button" class="btn" onClick={onRetry}>
          {t('retry')}
        </button>
      ) : null}
    </div>
  );
}

export type Load<T> = { state: 'loading' } | { state: 'error'; error: unknown } | { state: 'ok'; data: T };

/** Runs `load` whenever `deps` change (the last call wins); `reload` runs it again. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Load<T> & { reload: () => void } {
  const [result, setResult] = useState<Load<T>>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const id = ++latest.current;
    setResult({ state: 'loading' });
    load().then(
      (data) => id === latest.current && setResult({ state: 'ok', data }),
      (error: unknown) => id === latest.current && setResult({ state: 'error', error }),
    );
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { ...result, reload };
}

/** Shows loading, the error with a retry, or the content. */
export function Loaded<T>({ load, children }: { load: Load<T> & { reload: () => void }; children: (data: T) => preact.ComponentChildren }) {
  if (load.state === 'loading') return <Loading />;
  if (load.state === 'error') return <ErrorBox error={load.error} onRetry={load.reload} />;
  return <>{children(load.data)}</>;
}
