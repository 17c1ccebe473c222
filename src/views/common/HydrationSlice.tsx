import { Suspense, type ReactNode } from 'react';

/**
 * A part of a pre-rendered page that React hydrates on its own after the shell: a Suspense
 * boundary in the static HTML is hydrated later at low priority, in time slices, so the first
 * load never blocks the main thread with one long task for the whole page. The children never
 * suspend; the boundary only splits the work.
 */
export function HydrationSlice({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}
