import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client';

/**
 * Assistant names by id, for lists that show a call's or a number's assistant. One page of 200 (the
 * API's maximum and the default quota's double); an id not in it shows as `#id`. A failure leaves the
 * map empty: the ids still show.
 */
export function useAssistantNames(): Map<number, string> {
  const [names, setNames] = useState(new Map<number, string>());
  useEffect(() => {
    let live = true;
    void api.GET('/assistants', { params: { query: { limit: 200 } } }).then((result) => {
      if (live && result.data) setNames(new Map(result.data.data.map((a) => [a.id, a.name || `Assistant ${a.id}`])));
    });
    return () => {
      live = false;
    };
  }, []);
  return names;
}
