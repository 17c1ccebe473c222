import { useSelector } from '@xstate/react';
import { GANGSTERS_WITH_ENTRY } from '../../../contract/spec';
import { selectAccessByFriends, selectHasAccess } from '../../../machines/auth/auth.selectors';
import {
  selectGangsterCount,
  selectGangstersFromFriends,
} from '../../../machines/auth/gang.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { GameIcon } from '../common/GameIcon';
import { useTicketTier } from '../ticket/useTicketTier';
import { GangsterFigure, poseAt } from './GangsterFigure';
import { ProgressTracker } from './ProgressTracker';

/** Figures drawn one by one; a larger gang shows the rest as a number. */
const FIGURES_DRAWN = 8;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The game's art (public/media/art, docs/design.md), beside the words that name it. */
function GameArt({ name }: { name: 'gangster' | 'pistol' | 'tommy-gun' | 'pack' }) {
  return (
    <img
      className={`gang-art gang-art--${name}`}
      src={`/media/art/${name}.svg`}
      alt=""
      width={112}
      height={96}
      decoding="async"
    />
  );
}

/**
 * The lobby's hero (§2 Home logged in, §9): the player's gang drawn large, one figure per
 * Gangster (2 with entry, +1 for each friend who bought, arriving while the page is open), the
 * Early Bird's weapons and pack, and the two ways in (ticket, or friends) beneath.
 */
export function Gang() {
  const auth = useService(SYSTEM_IDS.auth);
  const held = useSelector(auth, selectHasAccess);
  const byFriends = useSelector(auth, selectAccessByFriends);
  const gangsters = useSelector(auth, selectGangsterCount);
  const fromFriends = useSelector(auth, selectGangstersFromFriends);
  const tier = useTicketTier();
  // The Early Bird's extras come with its ticket (§9), not with friends' entry.
  const extras = !byFriends && tier === 'earlyBird';
  const drawn = Math.min(gangsters, FIGURES_DRAWN);

  return (
    <section
      className={`gang${held ? ' gang--held' : ''}`}
      aria-labelledby="gang-title"
      data-testid="gang"
    >
      <p className="gang-kicker">{held ? 'Ready for training' : 'What entry gives you'}</p>
      <h2 id="gang-title" className="gang-title">
        Your gang
      </h2>
      <div className="gang-crew" aria-hidden="true">
        {Array.from({ length: drawn }, (_, i) => (
          <span
            key={i}
            className={`gang-figure${i >= GANGSTERS_WITH_ENTRY ? ' gang-figure--friend' : ''}`}
          >
            <GangsterFigure pose={poseAt(i)} />
            {i >= GANGSTERS_WITH_ENTRY && (
              <span className="gang-figure-badge">
                <GameIcon name="friends" size={18} />
              </span>
            )}
          </span>
        ))}
        {gangsters > drawn && <span className="gang-more">+{gangsters - drawn}</span>}
      </div>
      <ul className="gang-items" aria-label={held ? 'What you have' : 'What entry gives'}>
        <li className="gang-item">
          <GameArt name="gangster" />
          <span data-testid="gang-gangsters">{plural(gangsters, 'Gangster', 'Gangsters')}</span>
        </li>
        {extras && (
          <>
            <li className="gang-item">
              <GameArt name="pistol" />
              <span>+2 Guns</span>
            </li>
            <li className="gang-item">
              <GameArt name="tommy-gun" />
              <span>+2 Rifles</span>
            </li>
            <li className="gang-item">
              <GameArt name="pack" />
              <span>An extra Pack</span>
            </li>
          </>
        )}
      </ul>
      <p className="gang-note" aria-live="polite">
        {fromFriends > 0 ? (
          <strong data-testid="gang-from-friends">
            +{fromFriends} from {fromFriends === 1 ? 'a friend' : 'friends'}
          </strong>
        ) : null}
        {fromFriends > 0 ? ' · ' : ''}
        Each friend who buys a ticket adds a Gangster.
      </p>
      <ProgressTracker />
    </section>
  );
}
