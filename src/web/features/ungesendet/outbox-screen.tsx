import type { ReactNode } from 'react';
import { texts } from '../../../contract/texts.ts';
import { type OutboxEntry, outbox, useOutboxEntries } from '../../api/outbox/index.ts';
// format-core, not format.ts: this screen is in the first download (app.tsx), the other formats are not.
import { shortDateAndTime } from '../../ui/format-core.ts';

function callName(call: string): string {
  return (texts.outbox.calls as Record<string, string>)[call] ?? call;
}

function Scan({ entry, children }: { entry: OutboxEntry; children?: ReactNode }) {
  return (
    <li className="outbox-item">
      <strong>
        {callName(entry.call)}: {entry.label}
      </strong>
      <span className="sub">{texts.outbox.at(shortDateAndTime(entry.at))}</span>
      {children}
    </li>
  );
}

/**
 * The scans kept on this device (issue 10): the worker's own waiting ones (with 'Jetzt senden'), the ones the
 * server refused ('Fehlgeschlagen', each stays until 'Gelesen'), and other workers' — only their own login
 * sends those.
 */
export default function OutboxScreen({ userId }: { userId: number | undefined }) {
  const entries = useOutboxEntries();
  const mine = entries.filter((e) => e.userId === userId);
  const pending = mine.filter((e) => e.state === 'pending');
  const failed = mine.filter((e) => e.state === 'failed');
  const others = entries.filter((e) => e.userId !== userId);
  const otherNames = [...new Set(others.map((e) => e.userName))];

  if (entries.length === 0) return <p className="hint">{texts.outbox.none}</p>;
  return (
    <div className="stack">
      {failed.length > 0 && (
        <section aria-labelledby="outbox-failed">
          <h2 id="outbox-failed" className="notice-line">
            {texts.outbox.failed} ({failed.length})
          </h2>
          <ul className="outbox-list">
            {failed.map((entry) => (
              <Scan key={entry.key} entry={entry}>
                <span className="notice-line">{entry.message}</span>
                <button type="button" className="button" onClick={() => void outbox.acknowledge(entry.key)}>
                  {texts.outbox.acknowledge}
                </button>
              </Scan>
            ))}
          </ul>
        </section>
      )}
      {pending.length > 0 && (
        <section aria-labelledby="outbox-pending">
          <h2 id="outbox-pending">{texts.outbox.badge(pending.length)}</h2>
          <p className="hint">{texts.outbox.pending}</p>
          <button type="button" className="button" onClick={() => void outbox.flush()}>
            {texts.outbox.sendNow}
          </button>
          <ul className="outbox-list">
            {pending.map((entry) => (
              <Scan key={entry.key} entry={entry} />
            ))}
          </ul>
        </section>
      )}
      {otherNames.map((name) => (
        <section key={name} aria-label={texts.outbox.othersHeading(name)}>
          <h2>{texts.outbox.othersHeading(name)}</h2>
          <ul className="outbox-list">
            {others
              .filter((e) => e.userName === name)
              .map((entry) => (
                <Scan key={entry.key} entry={entry}>
                  {entry.state === 'failed' && <span className="notice-line">{texts.outbox.failed}</span>}
                </Scan>
              ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
