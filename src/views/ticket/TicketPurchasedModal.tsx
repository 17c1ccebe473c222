import { TIER_ACCESS_LEVEL, type TicketTier } from '../../../contract/calendar';
import { ticketBenefits, trainingStartAt } from '../../../machines/launch/receiptCopy';
import { useDatedCopy } from '../common/useDatedCopy';
import { Countdown } from '../home/Countdown';
import { ModalFrame } from '../overlays/ModalFrame';

/** §2 Access-granted modal: closes by the X, the button, or a click on the overlay. */
export function TicketPurchasedModal(props: {
  email: string;
  /** What the chain showed received, in SOL with 2 decimals. */
  amount: string;
  /** The tier the ticket was bought in: the access level (§2: 'Early Bird' while it runs). */
  tier: TicketTier;
  onClose: () => void;
}) {
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
        <dd data-testid="ticket-amount">{props.amount} SOL</dd>
        <dt>Access level</dt>
        <dd data-testid="ticket-access-level">{TIER_ACCESS_LEVEL[props.tier]}</dd>
      </dl>
      <p className="ticket-modal-subtitle">{trainingStart}</p>
      <Countdown />
      <ul className="ticket-benefits bullets" data-testid="ticket-benefits">
        {ticketBenefits(props.tier).map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <button type="button" className="ticket-primary" onClick={props.onClose}>
        Let&apos;s Build My Gang
      </button>
    </ModalFrame>
  );
}
