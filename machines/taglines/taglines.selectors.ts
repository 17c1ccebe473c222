import type { SnapshotFrom } from 'xstate';
import type { taglinesMachine } from './taglines.machine';
import { TAGLINES } from './taglines.types';

type TaglinesSnapshot = SnapshotFrom<typeof taglinesMachine>;

export const selectTaglineIndex = (s: TaglinesSnapshot): number => s.context.index;
export const selectTagline = (s: TaglinesSnapshot): string => TAGLINES[s.context.index] ?? '';
