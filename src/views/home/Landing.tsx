import { useEffect } from 'react';
import { Link } from 'wouter';
import { GAME_ICONS_CREDIT } from '../common/gameIconMeta';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { bonusBoxAt, startsHeaderAt } from '../../../machines/launch/datedCopy';
import { HydrationSlice } from '../common/HydrationSlice';
import { useDatedCopy } from '../common/useDatedCopy';
import { Countdown, useShownOpen } from './Countdown';
import { HeroPrice } from './OfferCards';
import { InvitedCue } from './InvitedCue';
import { LANDING, PROMO_VIDEO_LENGTH, PROMO_VIDEO_SRC, SOCIAL_LINKS } from './landing.content';
import { OfferCards } from './OfferCards';
import { SiteHeader } from './SiteHeader';
import { Taglines } from './Taglines';
import './landing.css';
import './game-art.css';

/** §2 hero header: the spec's words until the training starts, then words that stay true. */
function StartsHeader() {
  return (
    <p className="hero-starts" data-testid="starts-header">
      {useDatedCopy(startsHeaderAt)}
    </p>
  );
}

/** §2 bonus box: the Early Bird's extras while it runs, then what a ticket gives (no extras). */
function BonusBox() {
  const box = useDatedCopy(bonusBoxAt);
  return (
    <div className={`bonus-box bonus-box--${box.art}`} data-testid="bonus-box">
      <h3 className="bonus-title">{box.title}</h3>
      <ul className="bonus-list bullets">
        {box.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}

const noop = () => undefined;

function PlayIcon() {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
      <path d="M8 5.5v13l10.5-6.5z" fill="currentColor" />
    </svg>
  );
}

/** The landing page for visitors (§2 Home, logged out). */
export function Landing() {
  const signIn = useService(SYSTEM_IDS.signIn);
  const notifications = useService(SYSTEM_IDS.notifications);
  const openSignIn = () => signIn.send({ type: 'signIn.open' });
  const { shownOpen } = useShownOpen();
  // The key art's live scene, once the page is idle (its own chunk; a failed fetch leaves the
  // poster). It finds the hero's art itself and stops when the art leaves the page.
  useEffect(() => {
    const idle = requestIdleCallback(
      () => void import('./keyArt/scene').then((s) => s.startScene(), noop),
    );
    return () => cancelIdleCallback(idle);
  }, []);
  const playPromo = () =>
    notifications.send({ type: 'video.open', src: PROMO_VIDEO_SRC, autoplay: true });

  return (
    <div className="landing">
      <HydrationSlice>
        <SiteHeader />
      </HydrationSlice>
      <main id="main" className="landing-main">
        <HydrationSlice>
          <section className="hero" aria-labelledby="hero-title">
            {/* The key art: the city at night with the gang on its wet street, one scene
                (keyArt/scene.frag). Its poster frame (public/media/key-art-scene*.webp, rendered
                from the same shader by scripts/make-key-art-scene.mjs) is a background, never
                waited for by the first paint; once the page is idle the scene runs live on the
                canvas over it where the device can afford it, the page's rain falling until then. */}
            <div className="hero-art" aria-hidden="true" data-testid="key-art">
              <div className="hero-art-poster" data-testid="key-art-poster" />
              <div className="hero-art-rain" data-testid="key-art-rain" />
              <canvas className="hero-art-scene" data-testid="key-art-scene" />
            </div>
            <div className="container hero-inner" data-launch={shownOpen ? 'open' : 'before'}>
              <StartsHeader />
              <h1 id="hero-title" className="hero-title">
                {LANDING.title}
              </h1>
              <p className="hero-tagline">{LANDING.tagline}</p>
              <Taglines />
              <Countdown />
              {/* One call to action: Get Access with the ticket's price under it; the docs a
                  quiet link beneath. */}
              <div className="hero-actions">
                <GetAccessButton onClick={openSignIn} tap="get-access" className="hero-cta" />
                <HeroPrice />
                {/* Two quiet links under it: the docs, and the trailer (played in its overlay,
                    fetched only then). */}
                <div className="hero-links">
                  <Link href="/docs/intro" className="hero-docs-link">
                    Read Docs
                  </Link>
                  <button
                    type="button"
                    className="hero-trailer"
                    onClick={playPromo}
                    data-tap="hero-trailer"
                  >
                    <span className="hero-trailer-icon" aria-hidden="true">
                      <PlayIcon />
                    </span>
                    Watch the trailer · {PROMO_VIDEO_LENGTH}
                  </button>
                </div>
              </div>
              <InvitedCue />
            </div>
          </section>
        </HydrationSlice>

        <HydrationSlice>
          <section className="offer container" aria-labelledby="offer-title">
            <h2 id="offer-title" className="offer-title">
              Choose your way in
            </h2>
            <OfferCards />
            <BonusBox />
            <div className="offer-actions">
              <GetAccessButton onClick={openSignIn} tap="get-access-offer" className="offer-cta" />
            </div>
          </section>
        </HydrationSlice>
      </main>
      <HydrationSlice>
        <footer className="landing-footer">
          <div className="container landing-footer-inner">
            <Link href="/docs/intro" className="btn btn-ghost btn-small">
              View Docs
            </Link>
            <ul className="social-links" aria-label="Community">
              {SOCIAL_LINKS.map((link) => (
                <li key={link.href}>
                  <a href={link.href} target="_blank" rel="noopener noreferrer">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
            <p className="landing-legal">
              <Link href="/docs/terms">Terms of Service</Link>
              <span aria-hidden="true"> · </span>
              <Link href="/docs/privacy">Privacy Policy</Link>
            </p>
          </div>
          <p className="container landing-credit">
            {GAME_ICONS_CREDIT} · Manrope font (SIL OFL 1.1)
          </p>
        </footer>
      </HydrationSlice>
    </div>
  );
}

/**
 * Get Access: opens the sign-in dialog; `data-tap` lets a tap before hydration be replayed, and
 * the sign-in code is fetched ahead of it (src/prerender).
 */
function GetAccessButton(props: { onClick: () => void; tap: string; className?: string }) {
  return (
    <button
      type="button"
      className={props.className ? `btn btn-primary ${props.className}` : 'btn btn-primary'}
      onClick={props.onClick}
      data-tap={props.tap}
      data-tap-preload="sign-in"
    >
      {LANDING.getAccess}
    </button>
  );
}
