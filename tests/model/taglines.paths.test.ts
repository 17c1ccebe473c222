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
  specExpect,
  testPaths,
  testSpecScenarios,
  withSpecRecord,
} from '../support/paths';
import { SITE_TAGLINES } from '../support/oracle';
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

/** §2: the rotations seen so far (3 s each, from the oracle); the tagline shown follows. */
const withRecord = withSpecRecord(model, driver, {
  clauses: ['§2.home.taglines'],
  start: () => ({ rotations: 0 }),
  next: (x) => ({ rotations: x.rotations + 1 }),
  check: (ctx, x) => {
    const live = ctx.actor.getSnapshot();
    specExpect(
      '§2.home.taglines',
      selectTagline(live),
      `tagline after ${x.rotations} rotation(s)`,
    ).toBe(SITE_TAGLINES[x.rotations % SITE_TAGLINES.length]);
  },
});

testPaths(model, withRecord);

// Five rotations through the five taglines and back to the first: the generated paths stop at
// the first repeat of the chart's own cycle, whatever its length.
const rotate = { type: 'xstate.after.taglineRotation.taglines.rotating' } as const;
testSpecScenarios(model, withRecord, [
  { name: 'all five taglines in order, then the first again', events: Array(6).fill(rotate) },
]);

it('the index always names one of the five taglines and advances by one, wrapping', () => {
  checkModelProperty('taglines cycle through all five in order', model, {
    maxEvents: 25,
    invariant: ({ snapshot, previous }) => {
      const index = selectTaglineIndex(snapshot);
      // §2: five taglines (the spec's count, not the machine's list).
      if (index < 0 || index >= SITE_TAGLINES.length) return false;
      if (!previous) return index === 0;
      return index === (selectTaglineIndex(previous) + 1) % SITE_TAGLINES.length;
    },
  });
});
