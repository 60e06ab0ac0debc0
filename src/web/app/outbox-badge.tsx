import { Link } from 'react-router';
import { coreTexts as texts } from '../../contract/texts-core.ts';
import { useOutboxEntries } from '../api/outbox/index.ts';
import { paths } from '../paths.ts';
import { useSession } from './session.tsx';

/**
 * Under the header of every screen while the outbox holds scans: how many of this worker's wait, how many
 * the server refused, and whether another worker's wait on this device. Tapping it opens the list.
 */
export function OutboxBadge() {
  const entries = useOutboxEntries();
  const { session } = useSession();
  if (entries.length === 0 || !session) return null;
  const mine = entries.filter((e) => e.userId === session.id);
  const pending = mine.filter((e) => e.state === 'pending').length;
  const failed = mine.length - pending;
  const others = entries.length - mine.length;
  const parts = [
    pending > 0 ? texts.outbox.badge(pending) : null,
    failed > 0 ? texts.outbox.badgeFailed(failed) : null,
    others > 0 ? texts.outbox.badgeOthers(others) : null,
  ].filter((p) => p !== null);
  return (
    <Link className={failed > 0 ? 'outbox-badge outbox-badge--failed' : 'outbox-badge'} to={paths.outbox}>
      <span aria-hidden="true">{failed > 0 ? '⚠' : '✉'}</span> {parts.join(' · ')}
    </Link>
  );
}
