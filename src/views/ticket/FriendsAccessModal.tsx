import { trainingStartAt } from '../../../machines/launch/receiptCopy';
import { ACCESS_BY_FRIENDS_TEXT } from '../../../machines/payment/payment.types';
import { useDatedCopy } from '../common/useDatedCopy';
import { Countdown } from '../home/Countdown';
import { ModalFrame } from '../overlays/ModalFrame';

/**
 * The moment of access through friends (§1: entry by inviting 2 friends who buy tickets), shown
 * like the receipt when the second friend's ticket lands: their message, no amount. Closes by the
 * X, the button, or a click on the overlay.
 */
export function FriendsAccessModal(props: { email: string; onClose: () => void }) {
  const trainingStart = useDatedCopy(trainingStartAt);
  return (
    <ModalFrame
      onClose={props.onClose}
      backdropClassName="ticket-modal-overlay"
      backdropTestId="ticket-modal-overlay"
      className="ticket-modal"
      labelledBy="friends-modal-title"
    >
      <button type="button" className="ticket-modal-x" aria-label="Close" onClick={props.onClose}>
        ×
      </button>
      <h2 id="friends-modal-title">Access Granted!</h2>
      <p className="ticket-modal-subtitle" data-testid="friends-moment-line">
        {ACCESS_BY_FRIENDS_TEXT}
      </p>
      <dl className="ticket-modal-facts">
        <dt>E-mail</dt>
        <dd>{props.email}</dd>
      </dl>
      <p className="ticket-modal-subtitle">{trainingStart}</p>
      <Countdown />
      <ul className="ticket-benefits bullets">
        <li>Each invited friend who buys a ticket gives you +1 Gangster.</li>
        <li>You earn 5% of the $GNG your friends spend in the game.</li>
      </ul>
      <button type="button" className="ticket-primary" onClick={props.onClose}>
        Let&apos;s Build My Gang
      </button>
    </ModalFrame>
  );
}
