import { describe, expect, it } from 'vitest';
import {
  createActor,
  createMachine,
  fromCallback,
  type AnyActorRef,
  type EventObject,
} from 'xstate';
import { realtimeMachine } from '../../machines/realtime/realtime.machine';
import type { ServerFrame } from '../../contract/realtime';

/**
 * What the realtime connection tells its parent (the user-data service, which runs it): the
 * socket up (`userData.live`) and down (`userData.notLive`), and each change the server pushed
 * about this user (`userData.changed` with its kind). Written from the rule: every
 * change reaches the page, with a banner or without.
 */
function start() {
  const told: EventObject[] = [];
  const realtime = realtimeMachine.provide({
    actors: {
      socket: fromCallback(() => () => {}),
      network: fromCallback(() => {}),
      signInWatch: fromCallback(() => {}),
    },
    actions: { showBanner: () => {} },
  });
  const parent = createMachine({
    invoke: {
      id: 'realtime',
      src: realtime,
      input: ({ self }) => ({ now: () => Date.now(), parent: self }),
    },
    on: { '*': { actions: ({ event }) => void told.push(event) } },
  });
  const actor = createActor(parent);
  actor.start();
  const child = actor.getSnapshot().children.realtime as AnyActorRef;
  const receive = (frame: ServerFrame) =>
    child.send({ type: 'socket.received', frame, receivedAt: Date.now() });
  return { actor, child, told, receive };
}

const userFrame = (data: Record<string, string>, message = 'user.changed'): ServerFrame => ({
  type: 'room_message',
  room: 'notifications',
  message,
  data,
  timestamp: 1,
});

describe('realtime → user data', () => {
  it('tells live when connected and not live when the socket closes', () => {
    const { child, told, receive } = start();
    child.send({ type: 'realtime.connect' });
    expect(told).toEqual([]);
    receive({ type: 'welcome', timestamp: 1 });
    expect(told).toEqual([{ type: 'userData.live' }]);
    child.send({ type: 'socket.closed', code: 1006, reason: '' });
    expect(told).toEqual([{ type: 'userData.live' }, { type: 'userData.notLive' }]);
  });

  it('passes on every user change: silent ones and ones with a banner, nothing else', () => {
    const { child, told, receive } = start();
    child.send({ type: 'realtime.connect' });
    receive({ type: 'welcome', timestamp: 1 });
    told.length = 0;
    receive(userFrame({ event: 'invite.registered' }));
    receive(
      userFrame(
        { event: 'invite.confirmed', type: 'success', text: 'A friend bought a ticket' },
        'notification',
      ),
    );
    receive(userFrame({ type: 'info', text: 'Just a banner' }, 'notification'));
    receive(userFrame({ event: 'not.a.kind' }));
    receive({
      type: 'room_message',
      room: 'chat',
      message: 'x',
      data: { event: 'access.granted' },
      timestamp: 2,
    });
    expect(told).toEqual([
      { type: 'userData.changed', kind: 'invite.registered' },
      { type: 'userData.changed', kind: 'invite.confirmed' },
    ]);
  });
});
