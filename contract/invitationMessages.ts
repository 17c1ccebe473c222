// A module of its own: the landing page reads the rule's date (./invitation), never these.
/** The answers of the invite-code calls (user/inviter, invite/check). */
export const INVITATION_MESSAGES = {
  unknownCode: (code: string) =>
    `The invite code ${code} is unknown: check it with the friend who sent it.`,
  ownCode: 'This is your own invite code: enter the code of a friend.',
  emptyCode: "Please enter a friend's invite code.",
  alreadyInvited: 'Your inviter is already set.',
} as const;
