import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { z } from 'zod';
import { importKinds, importTexts, runImport } from '../../../contract/leitstand/import.ts';
import { messageOf } from '../../api/message.ts';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { leitstandUploadApi, useLeitstandQuery } from '../api.ts';
import { Outcome } from '../outcome.tsx';
import { QueryState } from '../query-state.tsx';
import '../admin.css';

const t = importTexts;
type Report = z.output<(typeof runImport)['response']>;
type LineError = Report['lineErrors'][number];

const lineColumns: Column<LineError>[] = [
  { header: t.lineColumns.line, cell: (r) => r.line, kind: 'number' },
  { header: t.lineColumns.column, cell: (r) => t.column(r.column) },
  { header: t.lineColumns.reason, cell: (r) => t.reason(r) },
];

/** The file's bytes as base64 (the browser's own encoder, fast for megabytes). */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/**
 * Leitstand › Import (admin): a CSV of any import kind, imported while the server runs — the engine of
 * `npm run import`, all or nothing. The refused lines are listed with the engine's reasons in German (by
 * their codes; the CLI prints the same in English); a file above the upload's limit is refused here before
 * it is sent.
 */
export default function ImportPage() {
  const query = useLeitstandQuery(importKinds);
  return (
    <>
      <h1>{t.title}</h1>
      <p className="hint">{t.intro}</p>
      <QueryState query={query}>{(data) => <ImportForm {...data} />}</QueryState>
    </>
  );
}

function ImportForm({ kinds, maxFileBytes }: z.output<(typeof importKinds)['response']>) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState(kinds[0]?.name ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [running, setRunning] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [report, setReport] = useState<{ fileName: string; report: Report } | null>(null);
  const columns = kinds.find((k) => k.name === kind)?.columns ?? [];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    setReport(null);
    if (!file) return setProblem(t.refusals.noFile);
    if (file.size > maxFileBytes) return setProblem(t.refusals.tooLarge(maxFileBytes));
    setProblem(null);
    setRunning(true);
    try {
      const answer = await leitstandUploadApi.call(runImport, {
        params: { kind },
        body: { fileName: file.name, content: await base64Of(file) },
        idempotencyKey: crypto.randomUUID(),
      });
      setReport({ fileName: file.name, report: answer });
      if (answer.imported) {
        setNotice(t.imported(answer.written, file.name));
        void queryClient.invalidateQueries();
      } else {
        setProblem(answer.fileRefused ? t.fileRefused : t.refused(answer.refusedRows, answer.rows));
      }
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setRunning(false);
    }
  };

  return (
    <>
      <form className="leitstand-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="import-kind">{t.kind}</label>
          <select
            id="import-kind"
            className="leitstand-input"
            value={kind}
            onChange={(e) => setKind(e.target.value)}
          >
            {kinds.map((k) => (
              <option key={k.name} value={k.name}>
                {t.kinds[k.name] ?? k.name} ({k.name})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="import-file">{t.file}</label>
          <input
            id="import-file"
            type="file"
            accept=".csv,text/csv,text/plain"
            className="leitstand-input"
            aria-describedby="import-file-hint"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </div>
        <button type="submit" className="button" disabled={running}>
          {running ? t.running : t.submit}
        </button>
        <p id="import-file-hint" className="hint">
          {t.fileHint(maxFileBytes)}
        </p>
        <p className="hint">
          {t.columns(
            columns.map((c) => (c.required ? `${c.header} ${t.requiredMark}` : c.header)).join(', '),
          )}
        </p>
      </form>
      <Outcome notice={notice} problem={problem} />
      {report && <ImportReport {...report} />}
    </>
  );
}

function ImportReport({ report }: { fileName: string; report: Report }) {
  return (
    <section aria-label={t.summaryTitle}>
      <p className="hint">{t.readAs(report.encoding)}</p>
      {report.ignoredColumns.length > 0 && (
        <p className="hint">{t.ignoredColumns(report.ignoredColumns.join(', '))}</p>
      )}
      {report.lineErrors.length > 0 && (
        <DataTable
          heading={t.lineErrorsTitle}
          empty=""
          columns={lineColumns}
          rows={report.lineErrors}
          rowKey={(r, i) => `${r.line}-${i}`}
        />
      )}
      {(report.unlistedRows ?? 0) > 0 && <p className="hint">{t.unlistedRows(report.unlistedRows ?? 0)}</p>}
      {report.summary.length > 0 && (
        <>
          <h2>{t.summaryTitle}</h2>
          <ul className="leitstand-summary">
            {report.summary.map((line) => (
              <li key={line.text}>{t.summaryLine(line)}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
