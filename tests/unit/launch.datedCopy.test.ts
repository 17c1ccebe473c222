import { describe, expect, it } from 'vitest';
import {
  bonusBoxAt,
  priceTierNameAt,
  startsHeaderAt,
  ticketCardAt,
  tierNow,
} from '../../machines/launch/datedCopy';
import { ticketBenefits, trainingStartAt } from '../../machines/launch/receiptCopy';
import { SPEC_CALENDAR, calendarFromEnv } from '../../contract/calendar';
import { README_DATED_TEXTS, SPEC_DATED_TEXTS, SPEC_LIMITS } from '../support/oracle';

/** Dated copy (§2 Home, §9): the spec's words before each date, true words from it on. */
const { launchAt, earlyBirdEnd } = SPEC_LIMITS;
const at = (now: number | null, calendar = SPEC_CALENDAR) => ({ now, calendar });

describe('dated copy', () => {
  it('reads as the spec before the first clock reading', () => {
    expect(startsHeaderAt(at(null))).toBe(SPEC_DATED_TEXTS.startsHeader);
    expect(ticketCardAt(at(null))).toEqual({
      title: 'Early Bird Entry',
      badge: SPEC_DATED_TEXTS.earlyBirdBadge,
    });
    expect(trainingStartAt(at(null))).toBe(SPEC_DATED_TEXTS.trainingStarts);
    expect(priceTierNameAt(at(null))).toBe(README_DATED_TEXTS.tierEarlyBird);
    expect(bonusBoxAt(at(null)).items).toContain('999 invitation codes');
    expect(tierNow(at(null))).toBe('earlyBird');
  });

  it('the Early Bird ends at Nov 20 00:00 UTC exactly: no extras promised after it', () => {
    expect(ticketCardAt(at(earlyBirdEnd - 1)).badge).toBe(SPEC_DATED_TEXTS.earlyBirdBadge);
    expect(priceTierNameAt(at(earlyBirdEnd - 1))).toBe(README_DATED_TEXTS.tierEarlyBird);
    expect(bonusBoxAt(at(earlyBirdEnd - 1)).title).toBe('Early Bird bonus');
    expect(ticketCardAt(at(earlyBirdEnd))).toEqual({
      title: README_DATED_TEXTS.ticketCard,
      badge: README_DATED_TEXTS.tierBeforeLaunch,
    });
    expect(priceTierNameAt(at(earlyBirdEnd))).toBe(README_DATED_TEXTS.tierBeforeLaunch);
    const box = bonusBoxAt(at(earlyBirdEnd));
    expect(box.title).toBe(README_DATED_TEXTS.bonusAfterEarlyBird);
    expect(box.items.join(' ')).not.toMatch(/999|extra|Early Bird/);
    expect(tierNow(at(earlyBirdEnd))).toBe('beforeLaunch');
    // Nov 20 does not touch the training texts.
    expect(startsHeaderAt(at(earlyBirdEnd))).toBe(SPEC_DATED_TEXTS.startsHeader);
    expect(trainingStartAt(at(earlyBirdEnd))).toBe(SPEC_DATED_TEXTS.trainingStarts);
  });

  it('the training texts change at Dec 20 00:00 UTC exactly', () => {
    expect(startsHeaderAt(at(launchAt - 1))).toBe(SPEC_DATED_TEXTS.startsHeader);
    expect(trainingStartAt(at(launchAt - 1))).toBe(SPEC_DATED_TEXTS.trainingStarts);
    expect(startsHeaderAt(at(launchAt))).toBe(README_DATED_TEXTS.headerFromLaunch);
    expect(trainingStartAt(at(launchAt))).toBe(README_DATED_TEXTS.receiptFromLaunch('December 20'));
    expect(ticketCardAt(at(launchAt)).badge).toBe(README_DATED_TEXTS.tierFromLaunch);
    expect(priceTierNameAt(at(launchAt))).toBe(README_DATED_TEXTS.tierFromLaunch);
    expect(tierNow(at(launchAt))).toBe('afterLaunch');
  });

  it('§2 bonus box: the invitation note names its date before it, and says it is required from it on', () => {
    // The default setting is the Early Bird end (Nov 20).
    expect(bonusBoxAt(at(earlyBirdEnd - 1)).items).toContain(
      'After Nov 20 an invitation via ref is required to enter',
    );
    expect(bonusBoxAt(at(earlyBirdEnd)).items).toContain(
      'An invitation via ref is required to enter',
    );
    // A studio that sets its own invitation date (INVITATION_REQUIRED_FROM) is named by it.
    const later = calendarFromEnv({ INVITATION_REQUIRED_FROM: '2025-12-01T00:00:00Z' });
    expect(bonusBoxAt(at(earlyBirdEnd, later)).items).toContain(
      'After Dec 1 an invitation via ref is required to enter',
    );
    expect(bonusBoxAt(at(Date.parse('2025-12-01T00:00:00Z'), later)).items).toContain(
      'An invitation via ref is required to enter',
    );
  });

  it("a studio's calendar moves every date and names its own days", () => {
    const calendar = calendarFromEnv({
      LAUNCH_AT: '2027-03-01T18:00:00Z',
      EARLY_BIRD_END: '2027-02-14T00:00:00Z',
    });
    const before = Date.parse('2027-02-13T23:59:59Z');
    expect(startsHeaderAt(at(before, calendar))).toBe('Starts March 1');
    expect(trainingStartAt(at(before, calendar))).toBe('Training starts March 1');
    expect(ticketCardAt(at(before, calendar))).toEqual({
      title: 'Early Bird Entry',
      badge: 'Until Feb 14',
    });
    expect(bonusBoxAt(at(before, calendar)).items).toContain(
      'After Feb 14 an invitation via ref is required to enter',
    );
    expect(ticketCardAt(at(before + 1000, calendar)).title).toBe(README_DATED_TEXTS.ticketCard);
    const open = Date.parse('2027-03-01T18:00:00Z');
    expect(startsHeaderAt(at(open - 1, calendar))).toBe('Starts March 1');
    expect(startsHeaderAt(at(open, calendar))).toBe(README_DATED_TEXTS.headerFromLaunch);
    expect(trainingStartAt(at(open, calendar))).toBe(
      README_DATED_TEXTS.receiptFromLaunch('March 1'),
    );
  });

  it('the receipt lists the Early Bird extras only for an Early Bird ticket', () => {
    expect(ticketBenefits('earlyBird')).toContain('999 invitation codes');
    expect(ticketBenefits('earlyBird')).toContain('4 extra starter weapons (+2 Guns, +2 Rifles)');
    for (const tier of ['beforeLaunch', 'afterLaunch'] as const) {
      expect(ticketBenefits(tier).join(' ')).not.toMatch(/999|extra/);
      expect(ticketBenefits(tier)).toContain('Access to the training phase');
    }
  });
});
