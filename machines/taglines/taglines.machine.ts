import { assign, setup } from 'xstate';
import { TAGLINE_ROTATION_MS, TAGLINES } from './taglines.types';

/**
 * The landing subheader's rotation (§2, §9): a new tagline every 3 s, wrapping after the fifth.
 * The timer is chart structure: `rotating` re-enters itself on the named `taglineRotation` delay.
 */
export const taglinesMachine = setup({
  types: {
    // `rotated`: a tagline after the first is showing (the view slides those in).
    context: {} as { index: number; count: number; rotated: boolean },
  },
  actions: {
    showNext: assign({
      index: ({ context }) => (context.index + 1) % context.count,
      rotated: true,
    }),
  },
  delays: {
    taglineRotation: TAGLINE_ROTATION_MS,
  },
}).createMachine({
  id: 'taglines',
  context: { index: 0, count: TAGLINES.length, rotated: false },
  initial: 'rotating',
  states: {
    rotating: {
      after: {
        taglineRotation: { target: 'rotating', reenter: true, actions: 'showNext' },
      },
    },
  },
});
