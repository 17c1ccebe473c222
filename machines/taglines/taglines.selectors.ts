import type { SnapshotFrom } from 'xstate';
import type { taglinesMachine } from './taglines.machine';
import { TAGLINES } from './taglines.types';

type TaglinesSnapshot = SnapshotFrom<typeof taglinesMachine>;

export const selectTaglineIndex = (s: TaglinesSnapshot): number => s.context.index;
// Stryker disable next-line StringLiteral: the chart keeps the index within TAGLINES; `?? ''` is for the type checker
export const selectTagline = (s: TaglinesSnapshot): string => TAGLINES[s.context.index] ?? '';
/** The tagline showing came with the rotation, not with the page: it slides in. */
export const selectTaglineSlidesIn = (s: TaglinesSnapshot): boolean => s.context.rotated;
