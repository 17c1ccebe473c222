// @vitest-environment happy-dom
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignInModalView } from '../../src/views/signIn/SignInModal';
import { flush, session, startSignInSystem } from '../support/signIn/fakes';

type Sys = ReturnType<typeof startSignInSystem>;

const dialog = () => screen.getByRole('dialog');
const boxes = () => within(dialog()).getAllByRole('textbox', { name: /^Digit \d of 6$/ });

async function toCodeStep(sys: Sys) {
  await act(async () => {
    sys.signIn.send({ type: 'signIn.open' });
  });
  await act(async () => {
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'don@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  });
  await act(async () => {
    sys.sendCalls.at(-1)!.result.resolve({ inviteCode: 'abCD12' });
    await flush();
  });
}

/** On the code step, the player pastes the six digits and presses Verify. */
async function pasteAndVerify(sys: Sys) {
  await toCodeStep(sys);
  await act(async () => {
    fireEvent.paste(boxes()[0]!, { clipboardData: { getData: () => '314159' } });
  });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  });
}

describe('sign-in modal', () => {
  let sys: Sys;
  beforeEach(() => {
    vi.useFakeTimers();
    sys = startSignInSystem({ codeInvite: 'abCD12' });
    render(<SignInModalView signIn={sys.signIn} hasJwt={false} />);
  });
  afterEach(() => {
    sys.rootActor.stop();
    vi.useRealTimers();
  });

  it('is hidden while a jwt exists even when the service is open [§2.shell.signinOverlay]', () => {
    const other = startSignInSystem();
    other.signIn.send({ type: 'signIn.open' });
    const { container } = render(<SignInModalView signIn={other.signIn} hasJwt />);
    expect(container).toBeEmptyDOMElement();
    other.rootActor.stop();
  });

  it('focuses the e-mail on open, the first box on the code step; Escape closes', async () => {
    await act(async () => {
      sys.signIn.send({ type: 'signIn.open' });
    });
    expect(screen.getByLabelText('E-mail')).toHaveFocus();
    expect(within(dialog()).getByText('ABCD12')).toBeInTheDocument();
    await toCodeStep(sys);
    expect(boxes()[0]).toHaveFocus();
    expect(within(dialog()).queryByText('ABCD12')).toBeNull();
    await act(async () => {
      fireEvent.keyDown(dialog(), { key: 'Escape' });
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('typing advances, Backspace erases a filled box and goes back from an empty one [§5.code.boxes]', async () => {
    await toCodeStep(sys);
    await act(async () => {
      fireEvent.change(boxes()[0]!, { target: { value: '4' } });
    });
    expect(boxes()[1]).toHaveFocus();
    await act(async () => {
      fireEvent.keyDown(boxes()[1]!, { key: 'Backspace' });
    });
    expect(boxes()[0]).toHaveFocus();
    expect(boxes()[0]).toHaveValue('4');
    await act(async () => {
      fireEvent.keyDown(boxes()[0]!, { key: 'Backspace' });
    });
    expect(boxes()[0]).toHaveValue('');
    expect(sys.signIn.getSnapshot().context.digits).toEqual(['', '', '', '', '', '']);
  });

  it('a pasted code fills all six and focuses Verify', async () => {
    await toCodeStep(sys);
    await act(async () => {
      fireEvent.paste(boxes()[2]!, { clipboardData: { getData: () => 'code: 314159' } });
    });
    expect(
      boxes()
        .map((b) => (b as HTMLInputElement).value)
        .join(''),
    ).toBe('314159');
    expect(screen.getByRole('button', { name: 'Verify' })).toHaveFocus();
  });

  it('a failed verification clears the boxes and focuses the first', async () => {
    await pasteAndVerify(sys);
    expect(screen.getByRole('button', { name: 'Verifying...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: /^Resend in/ })).toBeDisabled();
    await act(async () => {
      sys.verifyCalls[0]!.result.reject({ kind: 'network', message: 'timeout' });
      await flush();
    });
    expect(dialog().querySelector('.signin-notice')).toHaveTextContent(
      'Failed to verify code. Please try again.',
    );
    boxes().forEach((b) => expect(b).toHaveValue(''));
    expect(boxes()[0]).toHaveFocus();
  });

  it('verifying with a Telegram link pending shows step 3', async () => {
    await pasteAndVerify(sys);
    await act(async () => {
      sys.verifyCalls[0]!.result.resolve(session({ user_telegram_link: 'https://t.me/x' }));
      await flush();
    });
    expect(screen.getByRole('heading', { name: 'Telegram' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open Telegram' })).toHaveFocus();
  });
});
