import { useInfiniteQuery } from '@tanstack/react-query';
import { languages } from '../../../contract/i18n/languages.ts';
import {
  AUDIT_HIDDEN_DETAIL_KEYS,
  type AuditEntry,
  actionLabel,
  auditList,
  auditTexts,
} from '../../../contract/leitstand/audit.ts';
import { roleLabels } from '../../../contract/leitstand/benutzer.ts';
import { importTexts } from '../../../contract/leitstand/import.ts';
import { texts } from '../../../contract/texts.ts';
import { messageOf } from '../../api/message.ts';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { dateAndTime, germanNumber } from '../../ui/format.ts';
import { keyOf, leitstandApi } from '../api.ts';
import { Refusal } from '../outcome.tsx';
import '../admin.css';

const t = auditTexts;

/** A role by its German name, a language by its own (`from`/`to` of a change hold either). */
const roleOrLanguageOf = (value: string) =>
  (roleLabels as Record<string, string>)[value] ?? languages.find((l) => l.code === value)?.name ?? value;

/**
 * One value of a detail in German: ja/nein, a role's, language's or import kind's name, a time as the page
 * shows it.
 */
function valueText(key: string, value: unknown): string {
  if (typeof value === 'boolean') return value ? t.yes : t.no;
  if (typeof value === 'number') return germanNumber(value);
  if (typeof value !== 'string') return JSON.stringify(value);
  if (key === 'role' || key === 'language' || key === 'from' || key === 'to') return roleOrLanguageOf(value);
  if (key === 'kind') return importTexts.kinds[value] ?? value;
  if (key === 'outcome') return t.outcomes[value] ?? value;
  if (key === 'geoeffnetAm') return dateAndTime(value);
  return value;
}

/** Keys in the order of auditTexts.detailKeys (the database keeps a detail's keys in an order of its own). */
const KEY_ORDER = Object.keys(t.detailKeys);
const rank = (key: string) => (KEY_ORDER.includes(key) ? KEY_ORDER.indexOf(key) : KEY_ORDER.length);

/** A detail as the reader takes it in: Name: Karla, Rolle: Mitarbeiter, Passwort: ja, … */
function detailText(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .filter(([key]) => !AUDIT_HIDDEN_DETAIL_KEYS.includes(key))
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([key, value]) => `${t.detailKeys[key] ?? key}: ${valueText(key, value)}`)
    .join(', ');
}

const columns: Column<AuditEntry>[] = [
  { header: t.columns.at, cell: (e) => dateAndTime(e.at), kind: 'number' },
  { header: t.columns.user, cell: (e) => e.user.name },
  {
    header: t.columns.action,
    cell: (e) => actionLabel(e.action, e.detail),
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
      {query.isError && <Refusal>{messageOf(query.error)}</Refusal>}
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
