import { TIER_ACCESS_LEVEL, type TicketTier } from '../../../contract/calendar';
import { ticketBenefits } from '../../../machines/launch/receiptCopy';
import { AccessMoment } from './AccessMoment';

/** §2 Access-granted modal of a ticket: what was paid and the access level it gives. */
export function TicketPurchasedModal(props: {
  email: string;
  /** What the chain showed received, in SOL with 2 decimals. */
  amount: string;
  /** The tier the ticket was bought in: the access level (§2: 'Early Bird' while it runs). */
  tier: TicketTier;
  onClose: () => void;
}) {
  return (
    <AccessMoment
      titleId="ticket-modal-title"
      title="Ticket Purchased!"
      benefits={ticketBenefits(props.tier)}
      benefitsTestId="ticket-benefits"
      onClose={props.onClose}
    >
      <dl className="ticket-modal-facts">
        <dt>E-mail</dt>
        <dd>{props.email}</dd>
        <dt>Amount paid</dt>
        <dd data-testid="ticket-amount">{props.amount} SOL</dd>
        <dt>Access level</dt>
        <dd data-testid="ticket-access-level">{TIER_ACCESS_LEVEL[props.tier]}</dd>
      </dl>
    </AccessMoment>
  );
}
