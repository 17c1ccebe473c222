import { Component, type ReactNode } from 'react';
import { chunkFailed } from '../../platform/chunkRetry';
import { PartUnavailable } from './PartUnavailable';

type Props = {
  /** The part, as the log and the retry list name it. */
  name: string;
  /** The card's title, e.g. "This guide could not load". */
  title: string;
  variant: 'page' | 'panel';
  /** Before drawing again after a failure (forget what failed). */
  onRetry?: () => void;
  children: ReactNode;
};

/**
 * A part that suspends on its own file (a guide's article) or that may throw while drawing fails
 * here, inside its own place, with the styled card: the rest of the page (the header, the docs
 * sidebar, Back and Forward) keeps working, and the part draws again once its file can be had.
 */
export class PartBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(`[view] the ${this.props.name} could not load`, error);
    chunkFailed(
      this.props.name,
      () => {
        this.props.onRetry?.();
        // A boundary no longer on screen ignores it (React drops the update).
        this.setState({ failed: false });
      },
      error,
    );
  }

  override render(): ReactNode {
    if (this.state.failed)
      return <PartUnavailable variant={this.props.variant} title={this.props.title} />;
    return this.props.children;
  }
}
