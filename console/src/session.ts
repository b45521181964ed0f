/**
 * The signed-in API key. Kept in session storage only: it goes when the tab closes, is never
 * written to local storage, a cookie or a URL, and is sent only as the API's bearer token.
 */
const KEY = 'voice-agent.api-key';

export function storedKey(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY);
}
