import type { ApiError } from '../../api/client';

/** An API error with each 422 item at the field it names (`text: String should have at most 60000 characters`). */
export function Problems(props: { error: ApiError | Error | undefined }) {
  const { error } = props;
  if (!error) return null;
  if (!('details' in error) || error.details.length === 0) {
    return (
      <p class="error" role="alert">
        {'code' in error ? `${error.message} (${error.code})` : error.message}
      </p>
    );
  }
  return (
    <div class="error" role="alert">
      <p>{error.message}</p>
      <ul>
        {error.details.map((item, i) => (
          <li key={i}>
            {item.loc.filter((part) => part !== 'body' && part !== 'query').join('.') || 'request'}: {item.msg}
          </li>
        ))}
      </ul>
    </div>
  );
}
