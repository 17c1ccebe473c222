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
  /** A new value (the next address) draws the part afresh after a failure. */
  resetKey?: string;
  children: ReactNode;
};

/**
 * A part that suspends on its own file (a guide's article) or that may throw while drawing fails
 * here, inside its own place, with the styled card: the rest of the page (the header, the docs
 * sidebar, Back and Forward) keeps working, and the part draws again once its file can be had.
 */
export class PartBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };
  private mounted = false;

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidMount(): void {
    this.mounted = true;
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) {
      this.props.onRetry?.();
      this.setState({ failed: false });
    }
  }

  override componentWillUnmount(): void {
    this.mounted = false;
  }

  override componentDidCatch(error: unknown): void {
    console.error(`[view] the ${this.props.name} could not load`, error);
    chunkFailed(
      this.props.name,
      () => {
        this.props.onRetry?.();
        if (this.mounted) this.setState({ failed: false });
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
