import { useSelector } from '@xstate/react';
import {
  selectDiscountPercent,
  selectOldPrice,
  selectTicketPrice,
} from '../../../machines/session/session.selectors';
import { offerAt } from '../../../contract/calendar';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import type { OfferChoice } from '../../../machines/home/home.types';
import { useService } from '../../app/hooks';
import { useHydrated } from '../common/useHydrated';
import { priceTierNameAt, ticketCardAt } from '../../../machines/launch/datedCopy';
import { useDatedCopy } from '../common/useDatedCopy';
import { INVITE_SHARE_PERCENT } from './landing.content';

/** The offer as the build saw it (the pre-rendered page), until the server's has arrived. */
const BUILT_OFFER = offerAt(__SMW_CALENDAR__, __SMW_BUILT_AT__);

/** The price the page shows: the build's until hydration, then the server's (see OfferCards). */
function useShownPrice() {
  const session = useService(SYSTEM_IDS.session);
  const livePrice = useSelector(session, selectTicketPrice);
  return useHydrated() ? livePrice : BUILT_OFFER.price;
}

/** The offer in the hero, above the fold on a phone: the ticket's price and its tier. */
export function HeroPrice() {
  const price = useShownPrice();
  const tierName = useDatedCopy(priceTierNameAt);
  return (
    <p className="hero-price" data-testid="hero-price">
      Ticket <strong>{price} SOL</strong>
      <span className="hero-price-tier" data-testid="hero-price-tier">
        {' '}
        · {tierName}
      </span>
      <span className="hero-price-or"> · or free with 2 friends</span>
    </p>
  );
}

/**
 * The two ways in (§2): Early Bird Entry and Invite 2 friends. A native radio group: the cards
 * are labels of radios, so selection, keyboard and screen-reader behaviour come from the browser.
 */
export function OfferCards() {
  const session = useService(SYSTEM_IDS.session);
  const home = useService(SYSTEM_IDS.home);
  const choose = (offer: OfferChoice) => home.send({ type: 'home.offerChosen', offer });
  const livePrice = useSelector(session, selectTicketPrice);
  const liveOldPrice = useSelector(session, selectOldPrice);
  const liveDiscount = useSelector(session, selectDiscountPercent);
  // The cards hydrate after the rest of the page (a HydrationSlice), possibly once the server's
  // price has arrived: until then they show what the build rendered, §9's price on the day of
  // the build (what the server asks for, unless it sets a price of its own).
  const hydrated = useHydrated();
  const card = useDatedCopy(ticketCardAt);
  const price = hydrated ? livePrice : BUILT_OFFER.price;
  const oldPrice = hydrated ? liveOldPrice : BUILT_OFFER.oldPrice;
  const discount = hydrated ? liveDiscount : BUILT_OFFER.discount;

  return (
    <fieldset className="offer-cards">
      <legend className="visually-hidden">Choose how to enter</legend>
      <label className="offer-card">
        <input
          type="radio"
          name="offer"
          value="ticket"
          defaultChecked
          onChange={() => choose('ticket')}
        />
        <span className="offer-card-body" data-testid="ticket-card">
          <span className="offer-card-head">
            <span className="offer-card-title">{card.title}</span>
            <span className="offer-badge" data-testid="ticket-card-badge">
              {card.badge}
            </span>
          </span>
          <span className="offer-card-line">2 Gangsters</span>
          <span className="offer-price">
            <span className="offer-price-now" data-testid="ticket-price">
              {price} SOL
            </span>
            {/* Old price and percent off show only while the server's price is a discount. */}
            {discount > 0 && (
              <>
                <s className="offer-price-old" data-testid="old-price">
                  <span className="visually-hidden">Old price </span>
                  {oldPrice} SOL
                </s>
                <span className="offer-percent" data-testid="percent-off">
                  -{discount}%
                </span>
              </>
            )}
          </span>
        </span>
      </label>
      <label className="offer-card">
        {/* Chosen, it leads the player to the invite link once signed in (the home machine). */}
        <input type="radio" name="offer" value="invite" onChange={() => choose('invite')} />
        <span className="offer-card-body">
          <span className="offer-card-head">
            <span className="offer-card-title">Invite 2 friends</span>
            <span className="offer-badge offer-badge-free">Free</span>
          </span>
          <span className="offer-card-line">Entry plus 2 Gangsters when 2 friends buy tickets</span>
          <span className="offer-card-line offer-card-extra">
            + {INVITE_SHARE_PERCENT}% of their in-game cash purchases
          </span>
        </span>
      </label>
    </fieldset>
  );
}
