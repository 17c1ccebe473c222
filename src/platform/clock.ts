import { fromCallback } from 'xstate';
import type { ClockTicked } from '../../machines/launch/launch.types';

/**
 * The browser clock for the launch countdown: a reading at once, then one just after every
 * whole second (so the cards change together with the wall clock).
 */
export const browserClock = fromCallback<ClockTicked>(({ sendBack }) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = () => {
    const now = Date.now();
    sendBack({ type: 'clock.ticked', now });
    timer = setTimeout(tick, 1000 - (now % 1000) + 5);
  };
  tick();
  return () => clearTimeout(timer);
});
