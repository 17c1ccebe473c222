/** §5: an invite code keeps letters and digits only, at most 30 of them. */
const INVITE_CODE_MAX = 30;

/** §5: every character other than letters and digits is removed, the rest cut to 30. */
export function sanitizeInviteCode(raw: string): string {
  return raw.replace(/[^A-Za-z0-9]/g, '').slice(0, INVITE_CODE_MAX);
}
