import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { selectEmail, selectIsSending } from '../../../machines/signIn/signIn.selectors';
import type { SignInRef } from './refs';

/** Step 1 (§2): the e-mail and Continue (Sending... while busy). */
export function EmailStep({ signIn, titleId }: { signIn: SignInRef; titleId: string }) {
  const email = useSelector(signIn, selectEmail);
  const sending = useSelector(signIn, selectIsSending);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.send({ type: 'signIn.submitEmail' });
  };
  return (
    <form className="signin-form" noValidate onSubmit={submit} aria-busy={sending}>
      <h2 id={titleId} className="signin-title">
        Sign In
      </h2>
      <p className="signin-subtitle">Log in or register your account</p>
      <label className="signin-label" htmlFor="signin-email">
        E-mail
      </label>
      <input
        id="signin-email"
        className="signin-input"
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        placeholder="you@example.com"
        value={email}
        readOnly={sending}
        data-autofocus
        onChange={(e) => signIn.send({ type: 'signIn.emailChanged', email: e.target.value })}
      />
      <button className="signin-primary" type="submit" disabled={sending}>
        {sending ? 'Sending...' : 'Continue'}
      </button>
    </form>
  );
}
