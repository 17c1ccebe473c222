import { useRef, type MouseEvent, type ReactNode, type RefObject } from 'react';
import { useDialogFocus } from './useDialogFocus';

export type ModalFrameProps = {
  /** Asked by the close gestures: a press on the backdrop, and Escape. */
  onClose: () => void;
  backdropClassName: string;
  backdropTestId?: string;
  className: string;
  testId?: string;
  /** The dialog's accessible name: the id of its title, or a label. */
  labelledBy?: string;
  label?: string;
  describedBy?: string;
  /** `mousedown` keeps a text selection that ends on the backdrop from closing the dialog. */
  closeOn?: 'click' | 'mousedown';
  /** For a dialog that moves focus within itself (the sign-in steps). */
  dialogRef?: RefObject<HTMLDivElement | null>;
  children: ReactNode;
};

/**
 * The frame every modal dialog of the site shares: a backdrop that closes it when pressed
 * itself (not the dialog), and the dialog with focus moved in, kept inside, Escape to close and
 * focus given back when it closes (useDialogFocus). Render it only while the dialog is open.
 */
export function ModalFrame(props: ModalFrameProps) {
  const { onClose } = props;
  const ownRef = useRef<HTMLDivElement>(null);
  const dialog = props.dialogRef ?? ownRef;
  useDialogFocus(dialog, true, onClose);
  const onBackdrop = (event: MouseEvent) => {
    if (event.target === event.currentTarget) onClose();
  };
  return (
    <div
      className={props.backdropClassName}
      data-testid={props.backdropTestId}
      onClick={props.closeOn === 'mousedown' ? undefined : onBackdrop}
      onMouseDown={props.closeOn === 'mousedown' ? onBackdrop : undefined}
    >
      <div
        ref={dialog}
        className={props.className}
        role="dialog"
        aria-modal="true"
        aria-labelledby={props.labelledBy}
        aria-label={props.label}
        aria-describedby={props.describedBy}
        tabIndex={-1}
        data-testid={props.testId}
      >
        {props.children}
      </div>
    </div>
  );
}
