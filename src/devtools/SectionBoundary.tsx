import { Component, type ReactNode } from 'react';
import { crashText } from './sandbox';

/**
 * Keeps a crash in one part of the visualiser (a machine's section, the event log) inside that
 * part: it shows what went wrong there, with a button that draws the part again, and the rest
 * of the page keeps working.
 */
export class SectionBoundary extends Component<
  { name: string; children: ReactNode },
  { error: string | null }
> {
  override state: { error: string | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: string } {
    return { error: crashText(error) };
  }

  override render(): ReactNode {
    if (this.state.error === null) return this.props.children;
    return (
      <div className="devtools-crash" role="alert">
        <p>
          {this.props.name} crashed in the visualiser: <code>{this.state.error}</code>
        </p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          Draw it again
        </button>
      </div>
    );
  }
}
