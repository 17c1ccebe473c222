import { expect, it } from 'vitest';
import { createActor } from 'xstate';
import { taglinesMachine } from '../../machines/taglines/taglines.machine';
import { selectTagline, selectTaglineIndex } from '../../machines/taglines/taglines.selectors';
import { TAGLINES } from '../../machines/taglines/taglines.types';
import {
  actorDriver,
  actorProbe,
  advanceSpecDelay,
  checkModelProperty,
  defineModel,
  testPaths,
} from '../support/paths';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

const model = defineModel({
  name: 'taglines',
  machine: taglinesMachine,
  required: SPEC_TRANSITIONS.taglines,
  events: {},
  outcomes: { 'xstate.after.taglineRotation.taglines.rotating': [{}] },
});

function setup() {
  const actor = createActor(taglinesMachine);
  actor.start();
  return { actor };
}

const driver = actorDriver(model, {
  setup,
  events: {
    // §2: a new tagline every 3 s, exactly (oracle).
    'xstate.after.taglineRotation.taglines.rotating': ({ ctx, event }) =>
      advanceSpecDelay(event.type, actorProbe(ctx.actor)),
  },
  clauses: { rotating: ['§2.home.taglines'] },
  states: {
    rotating: ({ ctx, snapshot }) => {
      const live = ctx.actor.getSnapshot();
      expect(selectTaglineIndex(live)).toBe(selectTaglineIndex(snapshot));
      expect(selectTagline(live)).toBe(TAGLINES[selectTaglineIndex(snapshot)]);
    },
  },
});

testPaths(model, driver);

it('the index always names one of the five taglines and advances by one, wrapping', () => {
  checkModelProperty('taglines cycle through all five in order', model, {
    maxEvents: 25,
    invariant: ({ snapshot, previous }) => {
      const index = selectTaglineIndex(snapshot);
      if (index < 0 || index >= TAGLINES.length) return false;
      if (!previous) return index === 0;
      return index === (selectTaglineIndex(previous) + 1) % TAGLINES.length;
    },
  });
});
