import { lazy, Suspense } from 'react';

/**
 * The /__machines route. AppRoutes renders it only when `import.meta.env.MODE !== 'production'`,
 * so a production build drops this module and the visualiser chunk with it.
 */
const Visualiser = /* @__PURE__ */ lazy(() => import('./Visualiser'));

export function MachinesRoute() {
  return (
    <Suspense fallback={<main aria-busy="true" />}>
      <Visualiser />
    </Suspense>
  );
}
