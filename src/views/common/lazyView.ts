import { lazy, type ComponentType } from 'react';

/**
 * React.lazy for a view that lives in a chunk of its own, with a stand-in when the chunk cannot
 * load (the server went away, a deploy replaced the files): the rest of the page keeps working
 * instead of the whole tree unmounting, and the failure is logged.
 */
export function lazyView<P extends object>(
  load: () => Promise<ComponentType<P>>,
  standIn: ComponentType<P>,
  name: string,
) {
  return lazy(async () => {
    try {
      return { default: await load() };
    } catch (error) {
      console.error(`[view] the ${name} could not load`, error);
      return { default: standIn };
    }
  });
}
