/**
 * The receipt's and Access Granted's dated copy (§2): kept apart from datedCopy.ts so that the
 * landing page's code does not carry the words only the signed-in home shows.
 */
import { launchDayLabel, type TicketTier } from '../../contract/calendar';
import { launched, type DatedCopyInput } from './datedCopy';

/** The ticket receipt and Access Granted. */
export const trainingStartAt = (at: DatedCopyInput): string =>
  launched(at)
    ? `Training has been open since ${launchDayLabel(at.calendar)}: your gang can play now`
    : `Training starts ${launchDayLabel(at.calendar)}`;

/** What the receipt lists for a ticket of `tier`: the Early Bird's extras only with its tickets. */
export const ticketBenefits = (tier: TicketTier): readonly string[] =>
  tier === 'earlyBird'
    ? [
        'Access to the training phase',
        '2 Gangsters',
        '4 extra starter weapons (+2 Guns, +2 Rifles)',
        'An extra Pack',
        '999 invitation codes',
      ]
    : [
        'Access to the training phase',
        '2 Gangsters',
        '+1 Gangster for each friend who buys a ticket',
      ];
