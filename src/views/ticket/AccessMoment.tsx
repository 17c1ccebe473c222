import type { ReactNode } from 'react';
import { trainingStartAt } from '../../../machines/launch/receiptCopy';
import { useDatedCopy } from '../common/useDatedCopy';
import { Countdown } from '../home/Countdown';
import { ModalFrame } from '../overlays/ModalFrame';

/**
 * The frame of the moment access is granted (§2), by a ticket or by friends' tickets: the title,
 * what the player got (`children`), when training starts with its countdown, what comes next and
 * one button. Closes by the X, the button, or a click on the overlay.
 */
export function AccessMoment(props: {
  titleId: string;
  title: string;
  benefits: readonly string[];
  benefitsTestId?: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const trainingStart = useDatedCopy(trainingStartAt);
  return (
    <ModalFrame
      onClose={props.onClose}
      backdropClassName="ticket-modal-overlay"
      backdropTestId="ticket-modal-overlay"
      className="ticket-modal"
      labelledBy={props.titleId}
    >
      <button type="button" className="ticket-modal-x" aria-label="Close" onClick={props.onClose}>
        ×
      </button>
      <h2 id={props.titleId}>{props.title}</h2>
      {props.children}
      <p className="ticket-modal-subtitle">{trainingStart}</p>
      <Countdown />
      <ul className="ticket-benefits bullets" data-testid={props.benefitsTestId}>
        {props.benefits.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <button type="button" className="ticket-primary" onClick={props.onClose}>
        Let&apos;s Build My Gang
      </button>
    </ModalFrame>
  );
}
