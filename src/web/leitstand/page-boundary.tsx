import { Component, type ReactNode } from 'react';
import { leitstandTexts } from '../../contract/leitstand/uebersicht.ts';
import { Refusal } from './outcome.tsx';

/**
 * A Leitstand page that throws while it draws shows why and a way back, instead of a white screen: React
 * unmounts the whole tree on an error nothing catches, the navigation with it, and a shift lead would have to
 * guess that a reload helps (a helper saw the Wellen page go white once under load). The error still goes to
 * the console, where a developer looks. 'Erneut laden' draws the page again; another page in the navigation
 * starts afresh (the boundary is keyed by the page).
 */
export class PageBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error('Leitstand page failed to draw', error);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <div>
        <Refusal>{leitstandTexts.pageFailed}</Refusal>
        <button type="button" onClick={() => this.setState({ failed: false })}>
          {leitstandTexts.retry}
        </button>
      </div>
    );
  }
}
