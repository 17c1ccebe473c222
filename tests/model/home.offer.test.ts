import { expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { homeMachine } from '../../machines/home/home.machine';

/**
 * The visitor who chose `Invite 2 friends` before signing in: the home opens on the Invite tab
 * once, and a later showing of the home opens on Get Ticket as usual.
 */
it('the Invite card opens the Invite tab once; a later visit opens as usual', () => {
  const home = createActor(
    homeMachine.provide({ actors: { inviteCodes: fromPromise(() => new Promise(() => {})) } }),
    { input: {} },
  ).start();
  home.send({ type: 'home.offerChosen', offer: 'invite' });
  home.send({ type: 'home.shown' });
  expect(home.getSnapshot().matches('invite')).toBe(true);
  home.send({ type: 'home.showTicket' });
  home.send({ type: 'home.shown' });
  expect(home.getSnapshot().matches('getTicket')).toBe(true);
  home.stop();
});
