import { useSelector } from '@xstate/react';
import { useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { selectActiveTab, type HomeTab } from '../../../machines/home/home.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { GetTicketTab } from '../ticket/GetTicketTab';
import { GAME_ICONS_CREDIT } from '../common/gameIconMeta';
import { InviteTab } from './InviteTab';
import { Gang } from './Gang';
import { SiteHeader } from './SiteHeader';
import './signed-in-home.css';

const TABS: { id: HomeTab; label: string }[] = [
  { id: 'getTicket', label: 'Get Ticket' },
  { id: 'invite', label: 'Invite' },
];

/**
 * Home for signed-in users (§2): the e-mail, Exit, and the `Get Ticket` / `Invite` tabs, laid out
 * as a lobby: the player's gang and the ways in as the hero, the tabs beside it on a desktop and
 * beneath it on a phone.
 */
export function SignedInHome() {
  const home = useService(SYSTEM_IDS.home);
  const active = useSelector(home, selectActiveTab);
  const tabRefs = useRef<Record<HomeTab, HTMLButtonElement | null>>({
    getTicket: null,
    invite: null,
  });

  // Before the first paint: the option card chosen on the landing may open the Invite tab.
  useLayoutEffect(() => {
    home.send({ type: 'home.shown' });
  }, [home]);

  const show = (tab: HomeTab) =>
    home.send({ type: tab === 'invite' ? 'home.showInvite' : 'home.showTicket' });

  // WAI-ARIA tabs: arrow keys, Home and End move between tabs and select them.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = TABS.findIndex((t) => t.id === active);
    const to =
      event.key === 'ArrowRight'
        ? (at + 1) % TABS.length
        : event.key === 'ArrowLeft'
          ? (at - 1 + TABS.length) % TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? TABS.length - 1
              : -1;
    const tab = TABS[to];
    if (!tab) return;
    event.preventDefault();
    show(tab.id);
    tabRefs.current[tab.id]?.focus();
  };

  return (
    <div className="home">
      <SiteHeader />
      <main id="main" className="container home-main">
        <h1 className="home-title">Solana Mafia Wars</h1>
        <div className="lobby">
          <Gang />
          <div className="lobby-side">
            <div className="home-tabs" role="tablist" aria-label="Home" onKeyDown={onKeyDown}>
              {TABS.map((tab) => (
                <button
                  key={tab.id}
                  ref={(el) => {
                    tabRefs.current[tab.id] = el;
                  }}
                  type="button"
                  role="tab"
                  id={`tab-${tab.id}`}
                  aria-selected={active === tab.id}
                  aria-controls={`panel-${tab.id}`}
                  tabIndex={active === tab.id ? 0 : -1}
                  className="home-tab"
                  onClick={() => show(tab.id)}
                >
                  {tab.label}
                </button>
              ))}
            </div>
            <div
              className="home-panel"
              role="tabpanel"
              id={`panel-${active}`}
              aria-labelledby={`tab-${active}`}
            >
              {active === 'invite' ? (
                <InviteTab />
              ) : (
                <>
                  {/* The panel's own heading keeps the outline h1 → h2 → h3 inside the payment view. */}
                  <h2 className="visually-hidden">Get Ticket</h2>
                  <GetTicketTab onStartInviting={() => show('invite')} />
                </>
              )}
            </div>
          </div>
        </div>
        <p className="icons-credit">{GAME_ICONS_CREDIT}</p>
      </main>
    </div>
  );
}
