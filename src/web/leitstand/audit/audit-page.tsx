import { useInfiniteQuery } from '@tanstack/react-query';
import { type AuditEntry, auditList, auditTexts } from '../../../contract/leitstand/audit.ts';
import { texts } from '../../../contract/texts.ts';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { dateTime, messageOf } from '../admin-dialog.tsx';
import { keyOf, leitstandApi } from '../api.ts';
import '../admin.css';

const t = auditTexts;

/** A detail as the reader takes it in: key: value, … (values as JSON when they are not plain). */
function detailText(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

const columns: Column<AuditEntry>[] = [
  { header: t.columns.at, cell: (e) => dateTime(e.at), kind: 'number' },
  { header: t.columns.user, cell: (e) => e.user.name },
  {
    header: t.columns.action,
    cell: (e) => t.actions[e.action] ?? t.actions[e.action.split('.')[0] ?? ''] ?? e.action,
  },
  { header: t.columns.subject, cell: (e) => e.subject, kind: 'code' },
  { header: t.columns.detail, cell: (e) => detailText(e.detail), kind: 'code' },
];

/**
 * Leitstand › Protokoll: every write made in the Leitstand with who, what and when, newest first; older
 * pages on demand (keyset paging on the server). A live update reloads the pages shown.
 */
export default function AuditPage() {
  const query = useInfiniteQuery({
    queryKey: keyOf(auditList),
    queryFn: ({ pageParam, signal }) =>
      leitstandApi.call(auditList, { query: pageParam ? { before: pageParam } : {}, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next,
  });
  const entries = query.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <>
      <h1>{t.title}</h1>
      <p className="hint">{t.intro}</p>
      {query.isPending && <p className="hint">{texts.app.loading}</p>}
      {query.isError && (
        <p role="alert" className="leitstand-refusal">
          {messageOf(query.error)}
        </p>
      )}
      {query.data && (
        <DataTable
          heading={t.listTitle}
          empty={t.empty}
          columns={columns}
          rows={entries}
          rowKey={(e) => String(e.id)}
        />
      )}
      {query.hasNextPage && (
        <button
          type="button"
          className="button button--secondary button--small"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {t.more}
        </button>
      )}
    </>
  );
}
