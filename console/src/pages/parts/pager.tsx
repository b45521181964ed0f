import { useCallback, useState } from 'preact/hooks';

/** Cursor paging for a list: the cursor of the page shown, and the ones before it to go back. */
export interface CursorPages {
  cursor: string | undefined;
  page: number;
  next: (cursor: string) => void;
  previous: () => void;
  reset: () => void;
}

/** Holds a list's cursors (the API's `next_cursor`, passed back unchanged): forward by cursor, back by the stack. */
export function useCursorPages(): CursorPages {
  const [stack, setStack] = useState<string[]>([]);
  const next = useCallback((cursor: string) => setStack((s) => [...s, cursor]), []);
  const previous = useCallback(() => setStack((s) => s.slice(0, -1)), []);
  const reset = useCallback(() => setStack([]), []);
  return { cursor: stack.at(-1), page: stack.length + 1, next, previous, reset };
}

/** "Previous page" / "Next page" under a list, with where the reader is. */
export function Pager(props: { pages: CursorPages; nextCursor: string | null | undefined; label: string }) {
  const { pages, nextCursor } = props;
  if (pages.page === 1 && !nextCursor) return null;
  return (
    <nav class="pager" aria-label={`${props.label} pages`}>
      <button type="button" class="secondary" disabled={pages.page === 1} onClick={pages.previous}>
        Previous page
      </button>
      <span>Page {pages.page}</span>
      <button type="button" class="secondary" disabled={!nextCursor} onClick={() => nextCursor && pages.next(nextCursor)}>
        Next page
      </button>
    </nav>
  );
}
