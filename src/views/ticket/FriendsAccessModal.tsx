import { ACCESS_BY_FRIENDS_TEXT } from '../../../machines/payment/payment.types';
import { AccessMoment } from './AccessMoment';

/** What comes next for a player who entered through friends (§2 What's Next). */
const FRIENDS_BENEFITS = [
  'Each invited friend who buys a ticket gives you +1 Gangster.',
  'You earn 5% of the $GNG your friends spend in the game.',
] as const;

/**
 * The moment of access through friends (§1: entry by inviting 2 friends who buy tickets), shown
 * like the receipt when the second friend's ticket lands: their message, no amount.
 */
export function FriendsAccessModal(props: { email: string; onClose: () => void }) {
  return (
    <AccessMoment
      titleId="friends-modal-title"
      title="Access Granted!"
      benefits={FRIENDS_BENEFITS}
      onClose={props.onClose}
    >
      <p className="ticket-modal-subtitle" data-testid="friends-moment-line">
        {ACCESS_BY_FRIENDS_TEXT}
      </p>
      <dl className="ticket-modal-facts">
        <dt>E-mail</dt>
        <dd>{props.email}</dd>
      </dl>
    </AccessMoment>
  );
}
