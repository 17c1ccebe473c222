// React 19 has useSyncExternalStore built in; @xstate/react imports the shim for older Reacts.
// vite.config.ts points the shim here so the landing page does not ship a second copy.
export { useSyncExternalStore } from 'react';
