import { selectMembersUnavailable } from '../../../machines/app/members.selectors';
import { useAppSelector } from '../../app/hooks';

/**
 * Get Ticket's place while the payment service is not running: loading with the member services'
 * code (a moment after the page is in view), or not available when that code could not load (the
 * page's notice offers Retry).
 */
export function PaymentPending() {
  const unavailable = useAppSelector(selectMembersUnavailable);
  if (unavailable) return <p className="ticket-unavailable">Payment is not available right now.</p>;
  return (
    <p className="ticket-unavailable ticket-pending" role="status" aria-busy="true">
      <span className="spinner ticket-spinner" aria-hidden="true" />
      Loading payment…
    </p>
  );
}
