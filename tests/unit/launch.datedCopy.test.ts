import { describe, expect, it } from 'vitest';
import {
  earlyBirdBadgeAt,
  priceTierNameAt,
  startsHeaderAt,
  trainingStartAt,
} from '../../machines/launch/datedCopy';
import { SPEC_DATED_TEXTS, SPEC_LIMITS } from '../support/oracle';

/** Dated copy (§2 Home, §9): the spec's words before each date, true words from it on. */
const { launchAt, earlyBirdEnd } = SPEC_LIMITS;

describe('dated copy', () => {
  it('reads as the spec before the first clock reading', () => {
    expect(startsHeaderAt(null)).toBe(SPEC_DATED_TEXTS.startsHeader);
    expect(earlyBirdBadgeAt(null)).toBe(SPEC_DATED_TEXTS.earlyBirdBadge);
    expect(trainingStartAt(null)).toBe(SPEC_DATED_TEXTS.trainingStarts);
    expect(priceTierNameAt(null)).toBeNull();
  });

  it('the Early Bird ends at Nov 20 00:00 UTC exactly', () => {
    expect(earlyBirdBadgeAt(earlyBirdEnd - 1)).toBe(SPEC_DATED_TEXTS.earlyBirdBadge);
    expect(priceTierNameAt(earlyBirdEnd - 1)).toBeNull();
    expect(earlyBirdBadgeAt(earlyBirdEnd)).toBe('Ended');
    expect(priceTierNameAt(earlyBirdEnd)).toBe('Pre-launch price');
    // Nov 20 does not touch the training texts.
    expect(startsHeaderAt(earlyBirdEnd)).toBe(SPEC_DATED_TEXTS.startsHeader);
    expect(trainingStartAt(earlyBirdEnd)).toBe(SPEC_DATED_TEXTS.trainingStarts);
  });

  it('the training texts change at Dec 20 00:00 UTC exactly', () => {
    expect(startsHeaderAt(launchAt - 1)).toBe(SPEC_DATED_TEXTS.startsHeader);
    expect(trainingStartAt(launchAt - 1)).toBe(SPEC_DATED_TEXTS.trainingStarts);
    expect(startsHeaderAt(launchAt)).toBe('Training open since December 20');
    expect(trainingStartAt(launchAt)).toBe('Training open since December 20');
    expect(earlyBirdBadgeAt(launchAt)).toBe('Ended');
    expect(priceTierNameAt(launchAt)).toBe('Launch price');
  });
});
