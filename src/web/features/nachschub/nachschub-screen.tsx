import { useCallback, useEffect, useState } from 'react';
import { type ReplenishmentRow, replenishmentList } from '../../../contract/nachschub.ts';
import { texts } from '../../../contract/texts.ts';
import { api } from '../../api/api.ts';
import { messageOf } from '../../api/message.ts';
import { useScanTarget } from '../../scan/use-scan-target.ts';
import { useBanner } from '../../ui/banner.tsx';
import { SuccessFlash } from '../../ui/success-flash.tsx';
import { NachschubTask } from './nachschub-task.tsx';

/**
 * Replenishment: the pick places below their minimum, each with a suggested source. The worker takes a task
 * and proves it by scanning source, article, amount and target; the move is an ordinary article rebooking.
 */
export default function NachschubScreen() {
  const banner = useBanner();
  const [rows, setRows] = useState<ReplenishmentRow[] | null>(null);
  const [task, setTask] = useState<ReplenishmentRow | null>(null);
  const [success, setSuccess] = useState(false);

  const load = useCallback(async () => {
    try {
      setRows((await api.call(replenishmentList)).data);
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }, [banner]);
  useEffect(() => {
    void load();
  }, [load]);

  const done = useCallback(() => {
    setTask(null);
    setSuccess(true);
    void load();
  }, [load]);
  const endSuccess = useCallback(() => setSuccess(false), []);
  // The list is worked by tapping a task; a scan there says so.
  useScanTarget(task ? null : { kind: 'none', expects: texts.nachschub.chooseTask });

  return (
    <div className="stack">
      {success && <SuccessFlash text={texts.nachschub.success} onDone={endSuccess} />}
      {task ? (
        <NachschubTask task={task} onDone={done} onCancel={() => setTask(null)} />
      ) : (
        <>
          <button type="button" className="button button--secondary" onClick={() => void load()}>
            {texts.nachschub.reload}
          </button>
          {rows && rows.length === 0 && <p className="hint">{texts.nachschub.empty}</p>}
          {rows && rows.length > 0 && (
            <ul className="task-list">
              {rows.map((row) => (
                <li key={`${row.locationId}-${row.articleId}`} className="task">
                  <div className="task-title">
                    {row.location}: {row.nummer} {row.name}
                  </div>
                  <div className="task-detail">
                    {texts.nachschub.stock} {row.amount} / {texts.nachschub.minimum} {row.minimum} ·{' '}
                    {texts.nachschub.source}{' '}
                    {row.source ? `${row.source.location} (${row.source.amount})` : texts.nachschub.noSource}
                  </div>
                  <button
                    type="button"
                    className="button"
                    disabled={!row.source}
                    aria-label={texts.nachschub.taskButton(texts.nachschub.start, row.nummer, row.location)}
                    onClick={() => setTask(row)}
                  >
                    {texts.nachschub.start}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
