import type { AnyActorRef, EventObject } from 'xstate';

/** The systemIds of the long-lived services the app machine spawns: one constant map. */
export const SYSTEM_IDS = {
  app: 'app',
  session: 'session',
  auth: 'auth',
  signIn: 'signIn',
  payment: 'payment',
  notifications: 'notifications',
  errorModal: 'errorModal',
  theme: 'theme',
  realtime: 'realtime',
  launch: 'launch',
  home: 'home',
  userData: 'userData',
  invitation: 'invitation',
} as const;

export type SystemId = (typeof SYSTEM_IDS)[keyof typeof SYSTEM_IDS];

/** What an `enqueueActions` body hands {@link sendToService}: its queue and the actor system. */
interface ServiceSend {
  enqueue: { sendTo: (to: AnyActorRef, event: EventObject) => void };
  system: { get: (systemId: string) => AnyActorRef | undefined };
}

/**
 * The one way a machine sends to a long-lived service that may be absent (a machine run alone:
 * a unit or model test, the visualiser's sandbox): looked up by its systemId and sent only when
 * it runs. Never `sendTo(() => system.get(…))`: XState delivers a send to an absent target to the
 * sender itself (the linter refuses it in machines/, tests/unit/houseRules.test.ts).
 */
export function sendToService<TEvent extends EventObject>(
  { enqueue, system }: ServiceSend,
  systemId: SystemId,
  event: TEvent,
): void {
  // eslint-disable-next-line no-restricted-syntax -- the one look-up the rule points to
  const service = system.get(systemId);
  if (service) enqueue.sendTo(service, event);
}
