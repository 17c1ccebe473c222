import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { nextTask } from '../../platform/nextTask';
import { chunkFailed } from './chunkRetry';

/**
 * A view in a chunk of its own that renders `fallback` until the chunk has arrived, without
 * Suspense: the first render in the browser equals the pre-rendered HTML (the fallback), so an
 * overlay opened by machine state before its chunk arrives can never break hydration, and no
 * Suspense commit waits on a timer. When the chunk cannot load (the server went away, a deploy
 * replaced the files) the fallback stays, the failure is logged and reported to the page's retry
 * notice, whose Retry asks for the chunk again; the view appears once it has arrived.
 */
export function loadedView<P extends object>(
  load: () => Promise<ComponentType<P>>,
  name: string,
  { quiet = false }: { quiet?: boolean } = {},
): ComponentType<P & { fallback: ReactNode; unavailable?: ReactNode }> & {
  preload: () => Promise<void>;
} {
  let loaded: ComponentType<P> | null = null;
  let request: Promise<void> | undefined;
  /** The last request failed: the page's retry notice asks again, not the view. */
  let failed = false;
  const waiting = new Set<() => void>();
  const fetchOnce = (): Promise<void> => {
    if (request) return request;
    failed = false;
    request = load().then(
      (component) => {
        loaded = component;
        waiting.forEach((show) => show());
      },
      (error: unknown) => {
        console.error(`[view] the ${name} could not load`, error);
        request = undefined;
        failed = true;
        waiting.forEach((show) => show());
        chunkFailed(name, () => void fetchOnce(), error, { quiet });
      },
    );
    return request;
  };

  function LoadedView(props: P & { fallback: ReactNode; unavailable?: ReactNode }) {
    const { fallback, unavailable, ...rest } = props;
    // A chunk asked for ahead (`preload`) and arrived draws at once; otherwise the fallback
    // first, as the pre-rendered HTML has it.
    const [View, setView] = useState<ComponentType<P> | null>(() => loaded);
    // The part's own card (`unavailable`) while its file cannot be had, the fallback meanwhile.
    const [missing, setMissing] = useState(() => failed && !request);
    useEffect(() => {
      const show = () => {
        setView(() => loaded);
        setMissing(failed && !request);
      };
      waiting.add(show);
      if (loaded) show();
      // In a task of its own: the views mounted with the page do not add their requests to the
      // first commit's effects (one long task at start-up). Not after a failure asked ahead
      // (`preload`): the retry notice says so already, and its Retry asks again.
      else if (!failed) void nextTask().then(fetchOnce);
      return () => {
        waiting.delete(show);
      };
    }, []);
    if (View) return <View {...(rest as P)} />;
    return <>{missing && unavailable !== undefined ? unavailable : fallback}</>;
  }
  LoadedView.displayName = `Loaded(${name})`;
  /**
   * Asks for the chunk before the view mounts: for a page that will show it and is drawn fresh,
   * never hydrated (a view that arrived before hydration would not match the pre-rendered HTML).
   * Settles once the view is ready or its failure reported.
   */
  LoadedView.preload = fetchOnce;
  return LoadedView;
}
