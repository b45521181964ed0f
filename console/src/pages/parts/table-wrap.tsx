import type { ComponentChildren } from 'preact';

/**
 * A wide table that scrolls sideways on a narrow screen. The scrolling box is focusable and named,
 * so a keyboard can scroll it too (axe's scrollable-region-focusable).
 */
export function TableWrap(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={props.label}>
      {props.children}
    </div>
  );
}
