export interface GetTicketTabProps {
  /** Switches the home page to the Invite tab. */
  onStartInviting?: () => void;
}

export function GetTicketTab(_props: GetTicketTabProps = {}) {
  return (
    <section className="get-ticket" aria-label="Get Ticket">
      <p>Loading ticket…</p>
    </section>
  );
}
