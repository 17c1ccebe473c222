import { trainingStartAt } from '../../../machines/launch/datedCopy';
import { lamportsToSolFixed } from '../../wallet/lamports';
import { useDatedCopy } from '../common/useDatedCopy';
import { Countdown } from '../home/Countdown';
import { ModalFrame } from '../overlays/ModalFrame';

/** §2 Access-granted modal: closes by the X, the button, or a click on the overlay. */
export function TicketPurchasedModal(props: {
  email: string;
  paidLamports: string;
  onClose: () => void;
}) {
  const amount = /^\d+$/.test(props.paidLamports)
    ? lamportsToSolFixed(BigInt(props.paidLamports), 2)
    : '0.00';
  const trainingStart = useDatedCopy(trainingStartAt);
  return (
    <ModalFrame
      onClose={props.onClose}
      backdropClassName="ticket-modal-overlay"
      backdropTestId="ticket-modal-overlay"
      className="ticket-modal"
      labelledBy="ticket-modal-title"
    >
      <button type="button" className="ticket-modal-x" aria-label="Close" onClick={props.onClose}>
        ×
      </button>
      <h2 id="ticket-modal-title">Ticket Purchased!</h2>
      <dl className="ticket-modal-facts">
        <dt>E-mail</dt>
        <dd>{props.email}</dd>
        <dt>Amount paid</dt>
        <dd data-testid="ticket-amount">{amount} SOL</dd>
        <dt>Access level</dt>
        <dd>Early Bird</dd>
      </dl>
      <p className="ticket-modal-subtitle">{trainingStart}</p>
      <Countdown />
      <ul className="ticket-benefits">
        <li>Access to the training phase</li>
        <li>2 Gangsters</li>
        <li>4 extra starter weapons (+2 Guns, +2 Rifles)</li>
        <li>An extra Pack</li>
        <li>999 invitation codes</li>
      </ul>
      <button type="button" className="ticket-primary" onClick={props.onClose}>
        Let&apos;s Build My Gang
      </button>
    </ModalFrame>
  );
}
