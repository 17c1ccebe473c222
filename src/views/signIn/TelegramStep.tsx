import { useSelector } from '@xstate/react';
import { selectTelegramLink } from '../../../machines/signIn/signIn.selectors';
import type { SignInRef } from './refs';

/** Step 3 (§2): Open Telegram and Back to E-mail. */
export function TelegramStep({ signIn, titleId }: { signIn: SignInRef; titleId: string }) {
  const link = useSelector(signIn, selectTelegramLink);
  return (
    <div className="signin-form">
      <h2 id={titleId} className="signin-title">
        Telegram
      </h2>
      <p className="signin-subtitle">Your e-mail is verified. Link your Telegram to finish.</p>
      {link ? (
        <a
          className="signin-primary"
          href={link}
          target="_blank"
          rel="noopener noreferrer"
          data-autofocus
          onClick={() => signIn.send({ type: 'signIn.telegramOpened' })}
        >
          Open Telegram
        </a>
      ) : null}
      <button
        className="signin-link-button"
        type="button"
        onClick={() => signIn.send({ type: 'signIn.backToEmail' })}
      >
        Back to E-mail
      </button>
    </div>
  );
}
