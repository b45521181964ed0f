import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import type { ApiError } from '../api/client';

/** A page: its heading (the document title follows it) and its content. */
export function Page(props: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${props.title} · Voice Agent console`;
  }, [props.title]);
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-head">
        <h1 id="page-title" tabIndex={-1}>
          {props.title}
        </h1>
        {props.actions && <div class="actions">{props.actions}</div>}
      </header>
      {props.children}
    </section>
  );
}

/** An API error said plainly, announced to screen readers. */
export function ErrorNote(props: { error: ApiError | Error | undefined }) {
  if (!props.error) return null;
  const text = 'code' in props.error ? `${props.error.message} (${props.error.code})` : props.error.message;
  return (
    <p class="error" role="alert">
      {text}
    </p>
  );
}

/** Shown while a page loads its data. */
export function Loading(props: { what?: string }) {
  return (
    <p class="muted" role="status">
      Loading{props.what ? ` ${props.what}` : ''}…
    </p>
  );
}

/** A date and time in the viewer's locale, with the exact instant as its machine-readable value. */
export function When(props: { at: string | null | undefined }) {
  if (!props.at) return <span class="muted">—</span>;
  return <time dateTime={props.at}>{new Date(props.at).toLocaleString()}</time>;
}
