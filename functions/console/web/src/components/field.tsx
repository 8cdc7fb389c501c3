/** A labelled input whose API error (its `data.fields` names it) is shown beneath it and announced. */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { useStrings } from '../i18n';
import { errorMessage } from './status';
import { common } from './strings';

let seq = 0;

export function Field({
  label,
  name,
  error,
  hint,
  children,
}: {
  label: string;
  name: string;
  error?: unknown;
  hint?: string;
  children: (props: { id: string; name: string; 'aria-invalid'?: 'true'; 'aria-describedby'?: string }) => JSX.Element;
}) {
  const [id] = useState(() => `f-${name}-${(seq = (seq + 1) % 1e6)}`);
  const message = error instanceof ApiError ? error.forField(name) : undefined;
  const described = [hint ? `${id}-hint` : '', message ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={`field${message ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children({ id, name, ...(message ? { 'aria-invalid': 'true' as const } : {}), ...(described ? { 'aria-describedby': described } : {}) })}
      {hint ? (
        <small id={`${id}-hint`} class="muted">
          {hint}
        </small>
      ) : null}
      {message ? (
        <small id={`${id}-error`} class="field-error" role="alert">
          {message}
        </small>
      ) : null}
    </div>
  );
}

/** The refusal that names no field of the form: shown above its buttons. */
export function FormError({ error, fields }: { error: unknown; fields: readonly string[] }) {
  const t = useStrings(common);
  if (!error) return null;
  if (error instanceof ApiError && error.fields.some((f) => fields.includes(f))) return null;
  return (
    <p class="form-error" role="alert">
      {errorMessage(error, t)}
    </p>
  );
}
