import type { MemberServices } from '../../machines/app/app.types';
import { writeClipboardText } from '../platform/overlayServices';
import { provideRealtime } from './provide/realtime';
import { providePayment } from './provide/payment';
import type { AppDeps } from './compose';
import { provideUserData } from './provide/userData';
import { provideInvitation } from './provide/invitation';
import { phantomBrowseLink } from '../wallet/providers';
import { providePhantomAppLink } from './phantomAppLink';

/**
 * The member services (payment, and user data running the realtime connection) with their
 * browser parts provided. This
 * module is a chunk of its own, loaded by the app machine (`loadMembers`, src/app/compose.ts) once
 * it starts, after the first render, so a signed-out visitor's first load does not carry the
 * wallet and websocket code.
 */
export function provideMembers(deps: AppDeps): MemberServices {
  providePhantomAppLink(() => phantomBrowseLink());
  return {
    payment: providePayment(deps.api, writeClipboardText),
    userData: provideUserData(deps.api, provideRealtime(deps)),
    invitation: provideInvitation(deps),
  };
}
