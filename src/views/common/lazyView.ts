import { createElement, lazy, useEffect, useReducer, type ComponentType } from 'react';
import { chunkFailed } from './chunkRetry';

/**
 * React.lazy for a view that lives in a chunk of its own, with a stand-in when the chunk cannot
 * load (the server went away, a deploy replaced the files): the rest of the page keeps working
 * instead of the whole tree unmounting, the failure is logged and reported to the page's Retry,
 * which tries again (the stand-in shows anew when the chunk still cannot load).
 */
export function lazyView<P extends object>(
  load: () => Promise<ComponentType<P>>,
  standIn: ComponentType,
  name: string,
): ComponentType<P> {
  const redraws = new Set<() => void>();
  function attempt() {
    return lazy(async (): Promise<{ default: ComponentType<P> }> => {
      try {
        return { default: await load() };
      } catch (error) {
        console.error(`[view] the ${name} could not load`, error);
        chunkFailed(name, again, error);
        return { default: standIn as ComponentType<P> };
      }
    });
  }
  let Current = attempt();
  /** Retry: a fresh lazy view (the page's Suspense shows its spinner while the code comes). */
  function again() {
    Current = attempt();
    redraws.forEach((redraw) => redraw());
  }

  function LazyView(props: P) {
    const [, redraw] = useReducer((n: number) => n + 1, 0);
    useEffect(() => {
      redraws.add(redraw);
      return () => {
        redraws.delete(redraw);
      };
    }, []);
    return createElement(Current, props);
  }
  LazyView.displayName = `Lazy(${name})`;
  return LazyView;
}
