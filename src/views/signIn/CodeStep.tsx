import { useSelector } from '@xstate/react';
import {
  useEffect,
  useRef,
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { SIGN_IN_CODE_LENGTH } from '../../../contract/spec';
import {
  selectCanResend,
  selectCodeComplete,
  selectDigit,
  selectEmail,
  selectIsResending,
  selectIsVerifying,
  selectResendLabel,
} from '../../../machines/signIn/signIn.selectors';
import type { SignInRef } from './refs';

const BOXES = Array.from({ length: SIGN_IN_CODE_LENGTH }, (_, i) => i);
const digitSelectors = BOXES.map((i) => selectDigit(i));

type BoxProps = {
  signIn: SignInRef;
  index: number;
  boxes: RefObject<Array<HTMLInputElement | null>>;
  onComplete: () => void;
};

/** One box of the code: one digit, auto-advance, Backspace on an empty box goes back. */
function DigitBox({ signIn, index, boxes, onComplete }: BoxProps) {
  const digit = useSelector(signIn, digitSelectors[index]!);
  const verifying = useSelector(signIn, selectIsVerifying);
  const focusBox = (i: number) => boxes.current[i]?.focus();

  const paste = (text: string) => {
    signIn.send({ type: 'signIn.codePasted', text });
    const count = Math.min(text.replace(/[^0-9]/g, '').length, SIGN_IN_CODE_LENGTH);
    if (count >= SIGN_IN_CODE_LENGTH) onComplete();
    else focusBox(count);
  };

  const onChange = (value: string) => {
    const digits = value.replace(/[^0-9]/g, '');
    if (value === '') {
      signIn.send({ type: 'signIn.digitErased', index });
      return;
    }
    // One-time-code autofill and some keyboards put the whole code into one box.
    if (digits.length >= SIGN_IN_CODE_LENGTH) {
      paste(digits);
      return;
    }
    const typed = digits.slice(-1);
    if (!typed) return;
    signIn.send({ type: 'signIn.digitEntered', index, digit: typed });
    if (index < SIGN_IN_CODE_LENGTH - 1) focusBox(index + 1);
    else onComplete();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' || event.key === 'Delete') {
      // A filled box is erased; Backspace on an empty box goes back (§5).
      event.preventDefault();
      if (digit !== '') signIn.send({ type: 'signIn.digitErased', index });
      else if (event.key === 'Backspace' && index > 0) focusBox(index - 1);
    } else if (event.key === 'ArrowLeft' && index > 0) {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight' && index < SIGN_IN_CODE_LENGTH - 1) {
      event.preventDefault();
      focusBox(index + 1);
    } else if (event.key === 'Enter') {
      // Implicit submission is off while Verify is disabled; the chart still answers an
      // incomplete code with its message.
      event.preventDefault();
      signIn.send({ type: 'signIn.verify' });
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    paste(event.clipboardData.getData('text'));
  };

  return (
    <input
      ref={(node) => {
        boxes.current[index] = node;
      }}
      className="signin-digit"
      type="text"
      inputMode="numeric"
      pattern="[0-9]*"
      autoComplete={index === 0 ? 'one-time-code' : 'off'}
      aria-label={`Digit ${index + 1} of ${SIGN_IN_CODE_LENGTH}`}
      value={digit}
      readOnly={verifying}
      data-autofocus={index === 0 ? true : undefined}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={onKeyDown}
      onPaste={onPaste}
      onFocus={(e) => e.target.select()}
    />
  );
}

/** Step 2 (§2): Verify E-mail, six boxes, Verify, resend and Change E-mail. */
export function CodeStep({ signIn, titleId }: { signIn: SignInRef; titleId: string }) {
  const email = useSelector(signIn, selectEmail);
  const complete = useSelector(signIn, selectCodeComplete);
  const verifying = useSelector(signIn, selectIsVerifying);
  const canResend = useSelector(signIn, selectCanResend);
  // One request at a time: Verify waits while a new code is being sent.
  const resending = useSelector(signIn, selectIsResending);
  const resendLabel = useSelector(signIn, selectResendLabel);
  const boxes = useRef<Array<HTMLInputElement | null>>([]);
  const verifyButton = useRef<HTMLButtonElement>(null);

  // The last box filled (typed or pasted): Verify gets focus once the render enables it.
  const focusVerifyWhenComplete = useRef(false);
  const onComplete = () => {
    const button = verifyButton.current;
    if (button && !button.disabled) button.focus();
    else focusVerifyWhenComplete.current = true;
  };
  useEffect(() => {
    if (!complete || !focusVerifyWhenComplete.current) return;
    focusVerifyWhenComplete.current = false;
    verifyButton.current?.focus();
  }, [complete]);

  // A failed verification clears the boxes (§8): focus goes back to the first one. A success
  // leaves the step, so "no longer verifying while still on this step" means a failure.
  const wasVerifying = useRef(false);
  useEffect(() => {
    if (wasVerifying.current && !verifying) boxes.current[0]?.focus();
    wasVerifying.current = verifying;
  }, [verifying]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.send({ type: 'signIn.verify' });
  };

  return (
    <form className="signin-form" noValidate onSubmit={submit} aria-busy={verifying}>
      <h2 id={titleId} className="signin-title">
        Verify E-mail
      </h2>
      <p className="signin-subtitle">
        We sent a 6-digit code to <strong className="signin-email">{email.trim()}</strong>.
      </p>
      <fieldset className="signin-digits">
        <legend className="visually-hidden">6-digit code</legend>
        {BOXES.map((i) => (
          <DigitBox key={i} signIn={signIn} index={i} boxes={boxes} onComplete={onComplete} />
        ))}
      </fieldset>
      <button
        ref={verifyButton}
        className="signin-primary"
        type="submit"
        disabled={!complete || verifying || resending}
      >
        {verifying ? 'Verifying...' : 'Verify'}
      </button>
      <div className="signin-secondary-row">
        <button
          className="signin-link-button"
          type="button"
          disabled={!canResend}
          onClick={() => signIn.send({ type: 'signIn.resend' })}
        >
          {resendLabel}
        </button>
        <button
          className="signin-link-button"
          type="button"
          onClick={() => signIn.send({ type: 'signIn.changeEmail' })}
        >
          Change E-mail
        </button>
      </div>
    </form>
  );
}
