import { datensicherung, datensicherungTexts } from '../../../contract/leitstand/datensicherung.ts';
import { dateAndTime } from '../../ui/format.ts';
import { useLeitstandQuery } from '../api.ts';
import { Refusal } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
import '../admin.css';
import './datensicherung.css';

const t = datensicherungTexts;

/**
 * Leitstand › Datensicherung (admin): when the last backup was completed, how big and how it was taken, and
 * a warning when there is none or it is more than a day old (decision 29). The backup itself runs on the
 * server (`npm run backup`, the nightly systemd timer), not from the browser.
 */
export default function DatensicherungPage() {
  const query = useLeitstandQuery(datensicherung);
  return (
    <>
      <h1>{t.title}</h1>
      <p className="hint">{t.intro}</p>
      <QueryState query={query}>
        {({ letzte, veraltet }) => (
          <section aria-labelledby="last-backup">
            <h2 id="last-backup">{t.last}</h2>
            {veraltet ? (
              <Refusal>{letzte ? t.stale(dateAndTime(letzte.finishedAt)) : t.never}</Refusal>
            ) : (
              <p className="leitstand-notice">{t.ok}</p>
            )}
            {letzte && (
              <dl className="datensicherung-facts">
                <dt>{t.finishedAt}</dt>
                <dd>{dateAndTime(letzte.finishedAt)}</dd>
                <dt>{t.startedAt}</dt>
                <dd>{dateAndTime(letzte.startedAt)}</dd>
                <dt>{t.size}</dt>
                <dd>{t.megabytes(letzte.bytes)}</dd>
                <dt>{t.database}</dt>
                <dd>{t.databases[letzte.database]}</dd>
                <dt>{t.how}</dt>
                <dd>{letzte.online ? t.online : t.offline}</dd>
              </dl>
            )}
          </section>
        )}
      </QueryState>
    </>
  );
}
