import { useEffect, useState, type ComponentType, type ReactNode } from 'react';

/**
 * A view in a chunk of its own that renders `fallback` until the chunk has arrived, without
 * Suspense: the first render in the browser equals the pre-rendered HTML (the fallback), so an
 * overlay opened by machine state before its chunk arrives can never break hydration, and no
 * Suspense commit waits on a timer. For overlays that are closed in the pre-rendered page. When
 * the chunk cannot load (the server went away, a deploy replaced the files) the fallback stays
 * and the failure is logged.
 */
export function loadedView<P extends object>(
  load: () => Promise<ComponentType<P>>,
  name: string,
): ComponentType<P & { fallback: ReactNode }> {
  let request: Promise<ComponentType<P> | null> | undefined;
  const fetchOnce = () =>
    (request ??= load().catch((error: unknown) => {
      console.error(`[view] the ${name} could not load`, error);
      return null;
    }));

  function LoadedView(props: P & { fallback: ReactNode }) {
    const { fallback, ...rest } = props;
    const [View, setView] = useState<ComponentType<P> | null>(null);
    useEffect(() => {
      let live = true;
      void fetchOnce().then((component) => {
        if (live && component) setView(() => component);
      });
      return () => {
        live = false;
      };
    }, []);
    return View ? <View {...(rest as P)} /> : <>{fallback}</>;
  }
  LoadedView.displayName = `Loaded(${name})`;
  return LoadedView;
}
