import type { Bar } from './usage-stats';
import { words } from './format';

/**
 * A bar chart that is also its own text alternative: a table of counts, each row with its bar drawn in
 * SVG (hidden from screen readers, which read the numbers). SVG attributes size the bars: the
 * Content-Security-Policy forbids inline styles.
 */
export function BarTable(props: { caption: string; bars: readonly Bar[]; kind: string; unit: string }) {
  const top = Math.max(1, ...props.bars.map((bar) => bar.value));
  return (
    <table class="bars">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{props.kind}</th>
          <th scope="col" class="num">
            {props.unit}
          </th>
          <th scope="col">
            <span class="sr-only">Bar</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.bars.map((bar) => (
          <tr key={bar.label}>
            <th scope="row">{words(bar.label)}</th>
            <td class="num">{bar.value.toLocaleString('en-US')}</td>
            <td class="bar-cell">
              <svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
                <rect x="0" y="0" height="10" width={(100 * bar.value) / top} />
              </svg>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
