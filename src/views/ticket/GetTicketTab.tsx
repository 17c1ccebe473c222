import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { trainingStartAt } from '../../../machines/launch/receiptCopy';
import type { TicketTier } from '../../../contract/calendar';
import { useDatedCopy } from '../common/useDatedCopy';
import { useTicketTier } from './useTicketTier';
import type { ActorRefFrom } from 'xstate';
import { selectEmail } from '../../../machines/auth/auth.selectors';
import { selectIsCopied } from '../../../machines/copyFeedback/copyFeedback.selectors';
import type { PaymentMachine } from '../../../machines/payment/payment.machine';
import {
  selectAccessViaFriends,
  selectBalance,
  selectHasTicketAccess,
  selectIsRefreshing,
  selectJustGranted,
  selectIsUnconfirmed,
  selectPaidSol,
  selectPayButtonsDisabled,
  selectPayStep,
  selectPaymentAddress,
  selectSolanaPayUrl,
  selectShowCancelled,
  selectShowFriendsModal,
  selectShowPurchasedModal,
  selectShowQr,
  type PaymentSnapshot,
} from '../../../machines/payment/payment.selectors';
import {
  ACCESS_BY_FRIENDS_TEXT,
  AFTER_PAYING_NOTE,
  CANCELLED_NOTICE,
  PAY_STEP_TEXT,
  type WalletKind,
} from '../../../machines/payment/payment.types';
import {
  selectDiscountPercent,
  selectOldPrice,
  selectTicketPrice,
} from '../../../machines/session/session.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { selectNeedsInvitation } from '../../../machines/auth/invitation.selectors';
import { FriendsAccessModal } from './FriendsAccessModal';
import { InvitationPanel } from './InvitationPanel';
import { PaymentPending } from './PaymentPending';
import { useMemberService, useService } from '../../app/hooks';
import { phantomAppLink } from '../../app/phantomAppLink';
import { Countdown } from '../home/Countdown';
import { loadedView } from '../common/loadedView';
import { PartUnavailable } from '../common/PartUnavailable';
import { TicketPurchasedModal } from './TicketPurchasedModal';
import './ticket.css';
import { retryableImport } from '../../platform/retryableImport';

/** The QR code's drawing is its own file; when it cannot load its panel says so in place. */
const SolanaPayQr = loadedView(
  retryableImport(
    () => import('./SolanaPayQr'),
    (m) => m.default,
  ),
  'QR code',
);

/** Where payment errors happen, as the error modal names it (§3: component and file). */
const TICKET_TAB_SOURCE = { component: 'GetTicketTab', file: 'src/views/ticket/GetTicketTab.tsx' };
/** The celebration's code arrives only when access has just been granted. */
// Decoration: when its file cannot load the receipt shows without it, and no notice says so.
const Confetti = loadedView(
  retryableImport(
    () => import('./Confetti'),
    (m) => m.Confetti,
  ),
  'celebration',
  { quiet: true },
);

/** The development wallet's button: local builds only (`npm start`, browser tests); never in dist/. */
const LOCAL_WALLET = import.meta.env.MODE === 'localsite' || import.meta.env.DEV;
const LOCAL_WALLET_LABEL = 'Pay with the local test wallet (local chain)';

type PaymentRef = ActorRefFrom<PaymentMachine>;

/** §2 Access Granted's line for a player who paid. */
const TICKET_ISSUED_LINE = 'Your ticket has been issued.';
/** Entry through 2 friends' tickets: no ticket was issued, none is needed (the tracker agrees). */
const ENTRY_BY_FRIENDS_LINE = 'You are in through your friends: no ticket needed.';

export interface GetTicketTabProps {
  /** Switches the home page to the Invite tab. */
  onStartInviting?: () => void;
}

const selectAddressCopy = (s: PaymentSnapshot) => s.children.addressCopy;

/** §2 Get Ticket tab: the payment panel without access, the Access Granted panel with it. */
export function GetTicketTab({ onStartInviting }: GetTicketTabProps = {}) {
  const payment = useMemberService(SYSTEM_IDS.payment);
  if (!payment) return <PaymentPending />;
  return <TicketPanel payment={payment} onStartInviting={onStartInviting} />;
}

function TicketPanel({
  payment,
  onStartInviting,
}: {
  payment: PaymentRef;
  onStartInviting: (() => void) | undefined;
}) {
  const auth = useService(SYSTEM_IDS.auth);
  const session = useService(SYSTEM_IDS.session);
  const email = useSelector(auth, selectEmail);
  const price = useSelector(session, selectTicketPrice);
  const oldPrice = useSelector(session, selectOldPrice);
  const discount = useSelector(session, selectDiscountPercent);
  const hasAccess = useSelector(payment, selectHasTicketAccess);
  const byFriends = useSelector(payment, selectAccessViaFriends);
  const justGranted = useSelector(payment, selectJustGranted);
  const showModal = useSelector(payment, selectShowPurchasedModal);
  const showFriendsModal = useSelector(payment, selectShowFriendsModal);
  const paidSol = useSelector(payment, selectPaidSol);
  const askInviter = useSelector(auth, selectNeedsInvitation);

  // Showing the tab opens the payment service, leaving it closes it (and stops any polling);
  // what to pay reaches the service from the auth and session services (payment.target).
  useEffect(() => {
    payment.send({ type: 'payment.open', source: TICKET_TAB_SOURCE });
    return () => payment.send({ type: 'payment.close' });
  }, [payment]);

  const tier = useTicketTier();
  return (
    <section className="ticket" aria-label="Get Ticket">
      {hasAccess ? (
        <AccessGranted
          onStartInviting={onStartInviting}
          byFriends={byFriends}
          celebrate={justGranted}
        />
      ) : askInviter ? (
        <InvitationPanel />
      ) : (
        <PaymentPanel
          payment={payment}
          price={price}
          oldPrice={oldPrice}
          off={discount}
          tier={tier}
        />
      )}
      {showFriendsModal && (
        <FriendsAccessModal
          email={email}
          onClose={() => payment.send({ type: 'payment.closeModal' })}
        />
      )}
      {showModal && (
        <TicketPurchasedModal
          email={email}
          amount={paidSol}
          tier={tier}
          onClose={() => payment.send({ type: 'payment.closeModal' })}
        />
      )}
    </section>
  );
}

function AccessGranted({
  onStartInviting,
  byFriends,
  celebrate,
}: {
  onStartInviting: (() => void) | undefined;
  byFriends: boolean;
  celebrate: boolean;
}) {
  const trainingStart = useDatedCopy(trainingStartAt);
  return (
    <div className="ticket-granted">
      {celebrate && <Confetti fallback={null} />}
      <h2>Access Granted!</h2>
      {byFriends && <p data-testid="access-by-friends">{ACCESS_BY_FRIENDS_TEXT}</p>}
      {/* What the player holds is drawn in the lobby's gang beside this panel. */}
      <p data-testid="entry-line">{byFriends ? ENTRY_BY_FRIENDS_LINE : TICKET_ISSUED_LINE}</p>
      <p className="ticket-muted">{trainingStart}</p>
      <Countdown />
      <h3>What&apos;s Next</h3>
      <ul className="ticket-benefits bullets">
        <li>Each invited friend who buys a ticket gives you +1 Gangster.</li>
        <li>You earn 5% of the $GNG your friends spend in the game.</li>
      </ul>
      <button type="button" className="ticket-primary" onClick={onStartInviting}>
        Start Inviting Friends
      </button>
    </div>
  );
}

function PaymentPanel({
  payment,
  price,
  oldPrice,
  off,
  tier,
}: {
  payment: PaymentRef;
  price: string;
  oldPrice: string;
  /** Percent off against the old price (0: no discount shown). */
  off: number;
  tier: TicketTier;
}) {
  const address = useSelector(payment, selectPaymentAddress);
  const balance = useSelector(payment, selectBalance);
  const refreshing = useSelector(payment, selectIsRefreshing);
  const showCancelled = useSelector(payment, selectShowCancelled);
  const unconfirmed = useSelector(payment, selectIsUnconfirmed);
  const showQr = useSelector(payment, selectShowQr);
  const mobileLink = phantomAppLink();
  const payUrl = useSelector(payment, (s) => selectSolanaPayUrl(s, tier));

  return (
    <div className="ticket-pay">
      <div className="ticket-wallet" data-testid="wallet-card">
        <div className="ticket-wallet-main">
          <span className="ticket-label">Your play wallet</span>
          <code className="ticket-address" data-testid="payment-address">
            {address}
          </code>
          <div className="ticket-row">
            <CopyAddressButton payment={payment} />
          </div>
          <div className="ticket-row ticket-balance">
            <span className="ticket-label">Balance</span>
            <span className="ticket-balance-value" data-testid="payment-balance">
              {balance} SOL
            </span>
            <button
              type="button"
              className="ticket-secondary"
              aria-label="Refresh balance"
              aria-busy={refreshing}
              disabled={refreshing}
              onClick={() => payment.send({ type: 'payment.refresh' })}
            >
              {refreshing ? <span className="spinner ticket-spinner" aria-hidden="true" /> : null}
              {refreshing ? 'Refreshing...' : 'Refresh'}
            </button>
          </div>
        </div>
        {/* The Solana Pay QR beside the address: drawn on request, since showing it polls the
            balance until it is hidden. */}
        <div className="ticket-wallet-qr">
          {showQr ? (
            <div className="ticket-qr">
              <SolanaPayQr
                url={payUrl}
                fallback={<div className="ticket-qr-code" />}
                unavailable={<PartUnavailable variant="panel" title="The QR code could not load" />}
              />
              <p className="ticket-muted ticket-qr-note">
                Scan with a Solana wallet app. The balance updates on its own.
              </p>
              <button
                type="button"
                className="ticket-link"
                onClick={() => payment.send({ type: 'payment.hideQr' })}
              >
                Hide QR code
              </button>
            </div>
          ) : (
            <button
              type="button"
              className="ticket-qr-slot"
              onClick={() => payment.send({ type: 'payment.showQr' })}
            >
              <QrGlyph />
              <span>Pay with a QR code</span>
            </button>
          )}
        </div>
      </div>
      <h3>Complete Transfer</h3>
      <p className="ticket-amount">
        Required amount: {off > 0 && <s>{oldPrice} SOL</s>} <strong>{price} SOL</strong>
        {off > 0 && <span className="ticket-off"> {off}% off</span>}
      </p>
      {/* On a phone without an injected wallet, the Phantom app's browser is the way to pay. */}
      {mobileLink && (
        <a className="ticket-primary ticket-app-link" href={mobileLink}>
          Open in the Phantom app
        </a>
      )}
      <div className="ticket-buttons">
        <SendButton payment={payment} wallet="solflare" label="Send in Solflare" />
        <SendButton payment={payment} wallet="phantom" label="Send in Phantom" />
      </div>
      {showCancelled && (
        <div className="ticket-notice" role="status">
          <span>{CANCELLED_NOTICE}</span>
          <button
            type="button"
            aria-label="Dismiss"
            onClick={() => payment.send({ type: 'payment.dismissNotice' })}
          >
            ×
          </button>
        </div>
      )}
      {unconfirmed && (
        <p className="ticket-notice" role="status">
          The payment is not confirmed yet. Click refresh in a moment to check again.
        </p>
      )}
      <p className="ticket-muted">{AFTER_PAYING_NOTE}</p>
      {/* A developer's tool, not a way a player pays: last, out of the player's way. */}
      {LOCAL_WALLET && (
        <div className="ticket-devtool" data-testid="local-wallet">
          <span className="ticket-devtool-tag">Development tool · local build only</span>
          <SendButton payment={payment} wallet="local" label={LOCAL_WALLET_LABEL} />
        </div>
      )}
    </div>
  );
}

/** A QR code's outline, drawn where the code will appear once asked for. */
function QrGlyph() {
  return (
    <svg className="ticket-qr-glyph" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M3 3h8v8H3zm2 2v4h4V5zm8-2h8v8h-8zm2 2v4h4V5zM3 13h8v8H3zm2 2v4h4v-4zm8-2h2v2h-2zm4 0h4v2h-4zm-4 4h2v4h-2zm4 0h2v2h2v2h-4zm2-2h2v2h-2z"
      />
    </svg>
  );
}

function SendButton(props: { payment: PaymentRef; wallet: WalletKind; label: string }) {
  const disabled = useSelector(props.payment, selectPayButtonsDisabled);
  const step = useSelector(props.payment, (s) => selectPayStep(s, props.wallet));
  return (
    <button
      type="button"
      className="ticket-primary"
      disabled={disabled}
      aria-busy={step !== null}
      onClick={() => props.payment.send({ type: 'payment.send', wallet: props.wallet })}
    >
      {step ? (
        <>
          <span className="spinner ticket-spinner" aria-hidden="true" /> {PAY_STEP_TEXT[step]}
        </>
      ) : (
        props.label
      )}
    </button>
  );
}

function CopyAddressButton({ payment }: { payment: PaymentRef }) {
  const copy = useSelector(payment, selectAddressCopy);
  const copied = useSelector(copy, (s) => (s ? selectIsCopied(s) : false));
  return (
    <button
      type="button"
      className="ticket-secondary"
      onClick={() => payment.send({ type: 'payment.copyAddress' })}
    >
      {copied ? 'Copied!' : 'Copy'}
    </button>
  );
}
