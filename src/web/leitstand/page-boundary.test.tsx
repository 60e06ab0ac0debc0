// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PageBoundary } from './page-boundary.tsx';

afterEach(cleanup);

/** A page that throws while it draws, as long as `broken` says so. */
let broken = true;
function Page() {
  if (broken) throw new Error('undefined is not an object');
  return <p>Wellen</p>;
}

describe('a Leitstand page that fails while it draws', () => {
  it('says so in German beside the navigation, and draws the page again on "Erneut laden"', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    broken = true;
    render(
      <div>
        <nav>Navigation</nav>
        <PageBoundary>
          <Page />
        </PageBoundary>
      </div>,
    );
    expect(screen.getByRole('alert').textContent).toBe('Diese Seite konnte nicht angezeigt werden.');
    expect(screen.getByText('Navigation')).toBeTruthy();
    broken = false;
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Erneut laden' })));
    expect(screen.getByText('Wellen')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(logged).toHaveBeenCalledWith('Leitstand page failed to draw', expect.any(Error));
    logged.mockRestore();
  });
});
