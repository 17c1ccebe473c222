/**
 * The tests written before the invitation rule (contract/invitation.ts) pay as newcomers without
 * an inviter on today's clock, which the rule's default (the Early Bird end, long past) would
 * refuse. They run with the rule's date set far ahead through its own setting; the rule's own
 * tests start their servers with the default calendar (`calendarFromEnv({})`). A test run that
 * sets INVITATION_REQUIRED_FROM itself keeps its value.
 */
export const INVITATION_RULE_OFF_FROM = '2999-01-01T00:00:00Z';

export function turnInvitationRuleOffForEarlierTests(env: NodeJS.ProcessEnv = process.env): void {
  env.INVITATION_REQUIRED_FROM ??= INVITATION_RULE_OFF_FROM;
}
