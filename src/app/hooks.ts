import { useSelector } from '@xstate/react';
import { useContext } from 'react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { AppMachine, SERVICES } from '../../machines/app/app.machine';
import { selectMembersRunning } from '../../machines/app/app.selectors';
import type { PaymentMachine } from '../../machines/payment/payment.machine';
import type { RealtimeMachine } from '../../machines/realtime/realtime.machine';
import type { SessionMachine } from '../../machines/session/session.machine';
import type { InvitationMachine } from '../../machines/invitation/invitation.machine';
import { AppActorContext } from './AppProvider';

/**
 * Hooks over the root actor. `useService(SYSTEM_IDS.x)` returns the typed ref of a long-lived
 * service (found with `system.get`); its type follows SERVICES in machines/app/app.machine.ts,
 * so a service added there is typed here with no further edit.
 */
export type ServiceRefs = {
  [K in keyof typeof SERVICES]: ActorRefFrom<(typeof SERVICES)[K]>;
} & {
  session: ActorRefFrom<SessionMachine>;
  /**
   * Member services: spawned by the app machine once their code has loaded (signed-in use); the
   * realtime connection runs inside the user-data service.
   */
  payment: ActorRefFrom<PaymentMachine>;
  realtime: ActorRefFrom<RealtimeMachine>;
  invitation: ActorRefFrom<InvitationMachine>;
};

export type AppSnapshot = SnapshotFrom<AppMachine>;

/** The root actor of the surrounding AppActorProvider. */
export function useAppActor() {
  const actor = useContext(AppActorContext);
  if (!actor) throw new Error('useAppActor is used outside an AppActorProvider');
  return actor;
}

/** Subscribes to one derived value of the root actor (pass a module-level selector). */
export function useAppSelector<T>(
  selector: (snapshot: AppSnapshot) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  return useSelector(useAppActor(), selector, compare);
}

export function useService<K extends keyof ServiceRefs>(id: K): ServiceRefs[K] {
  const app = useAppActor();
  const ref = app.system.get(id);
  if (!ref) throw new Error(`The ${String(id)} service is not running`);
  return ref as ServiceRefs[K];
}

/**
 * A member service (payment, realtime) or undefined until the app machine has loaded its code
 * and spawned it; the view re-renders when it arrives. Looked up by systemId: the realtime
 * connection is a child of the user-data service, not of the root.
 */
export function useMemberService<K extends 'payment' | 'realtime' | 'invitation'>(
  id: K,
): ServiceRefs[K] | undefined {
  const app = useAppActor();
  const running = useAppSelector(selectMembersRunning);
  return (running ? app.system.get(id) : undefined) as ServiceRefs[K] | undefined;
}
