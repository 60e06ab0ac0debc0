import { type FormEvent, type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { texts } from '../../../contract/texts.ts';
import { scannerTestTexts } from '../../../contract/texts-scanner-test.ts';
import { paths } from '../../paths.ts';
import { SCAN_ATTRIBUTE } from '../../scan/router.ts';
import { useScanTarget } from '../../scan/use-scan-target.ts';
import { type DeviceSettings, readDeviceSettings, saveDeviceSettings } from '../../ui/device-settings.ts';
import {
  analyzeScan,
  type CapturedScan,
  describeFinding,
  END_OF_SCAN_PAUSE_MS,
  type Finding,
  type KeyRecord,
  type ScanReport,
  summarize,
  TEST_CODES,
  type Terminator,
  visible,
} from './scanner-test.ts';

/**
 * Scanner testen: the worker scans the test sheet's codes into a plain field — not a ScanField, whose
 * normalizing would hide what the scanner really sends. Every keydown and input event is recorded; a scan
 * ends at Enter, Tab or a pause, and is judged against the device's current scanner settings.
 */
export default function ScannerTestScreen() {
  const t = scannerTestTexts;
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const recording = useRef<{ keys: KeyRecord[]; inputs: number[] }>({ keys: [], inputs: [] });
  const pause = useRef<number | undefined>(undefined);
  const [scans, setScans] = useState<CapturedScan[]>([]);
  const [settings, setSettings] = useState<DeviceSettings>(readDeviceSettings);
  const reports = useMemo(() => scans.map((scan) => analyzeScan(scan, settings)), [scans, settings]);
  const summary = summarize(reports);
  const lastReport = reports[reports.length - 1];

  // Every scan goes into the test field, wherever the worker tapped: it is this screen's scan target.
  useScanTarget({ kind: 'field', label: t.field, input: () => field.current });
  useEffect(() => () => window.clearTimeout(pause.current), []);

  const finish = (terminator: Terminator) => {
    window.clearTimeout(pause.current);
    const input = field.current;
    if (!input) return;
    const { keys, inputs } = recording.current;
    recording.current = { keys: [], inputs: [] };
    const text = input.value;
    input.value = '';
    if (text !== '') setScans((before) => [...before, { keys, inputs, text, terminator }]);
  };
  const waitForMore = () => {
    window.clearTimeout(pause.current);
    pause.current = window.setTimeout(() => finish('none'), END_OF_SCAN_PAUSE_MS);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const { key, code, timeStamp, ctrlKey, altKey } = event;
    recording.current.keys.push({ key, code, at: timeStamp, ctrl: ctrlKey, alt: altKey });
    if (key === 'Enter' || key === 'Tab') {
      event.preventDefault();
      finish(key === 'Enter' ? 'enter' : 'tab');
    } else waitForMore();
  };
  const onInput = (event: FormEvent<HTMLInputElement>) => {
    recording.current.inputs.push(event.timeStamp);
    waitForMore();
  };
  const take = (change: Partial<DeviceSettings>) => {
    const next = { ...settings, ...change };
    saveDeviceSettings(next);
    setSettings(next);
    field.current?.focus();
  };

  return (
    <div className="stack">
      <p className="hint">{t.intro}</p>
      <Link className="button button--secondary" to={paths.testSheet}>
        {texts.settings.testSheet}
      </Link>
      <div className="field">
        <label htmlFor={id}>{t.field}</label>
        <input
          ref={field}
          id={id}
          className="scan-input"
          {...{ [SCAN_ATTRIBUTE]: 'scan' }}
          type="text"
          autoComplete="off"
          autoCorrect="off"
          autoCapitalize="off"
          spellCheck={false}
          onKeyDown={onKeyDown}
          onInput={onInput}
        />
      </div>
      {lastReport && lastReport.code === null && (
        <p className="notice-line" role="alert">
          {t.unknownCode} {t.received(visible(lastReport.received))}
        </p>
      )}
      <section className="scanner-verdict" aria-live="polite" aria-label={texts.settings.scannerTestTitle}>
        {summary.findings.length > 0 ? (
          <>
            <p>
              <strong>{t.verdictProblems}</strong>
            </p>
            <ul className="advice-list">
              {summary.findings.map((finding) => (
                <Advice key={describeFinding(finding).advice} finding={finding} onTake={take} />
              ))}
            </ul>
          </>
        ) : summary.pending === 0 ? (
          <p className="scanner-ok">{t.verdictOk}</p>
        ) : null}
        {summary.pending > 0 && <p>{t.verdictPending(summary.pending)}</p>}
      </section>
      {TEST_CODES.map((code) => (
        <CodeResult key={code.id} title={t.codes[code.id]} report={summary.latest[code.id]} />
      ))}
      {scans.length > 0 && (
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            setScans([]);
            field.current?.focus();
          }}
        >
          {t.restart}
        </button>
      )}
    </div>
  );
}

function CodeResult({ title, report }: { title: string; report: ScanReport | undefined }) {
  const t = scannerTestTexts;
  return (
    <section className="scanner-code" aria-label={title}>
      <h2>{title}</h2>
      {!report ? (
        <p className="hint">{t.notScanned}</p>
      ) : report.findings.length === 0 ? (
        <p className="scanner-ok">{t.ok}</p>
      ) : (
        <ul className="finding-list">
          {report.findings.map((finding) => {
            const { problem, advice } = describeFinding(finding);
            return (
              <li key={problem}>
                {problem} <strong>{advice}</strong>
              </li>
            );
          })}
        </ul>
      )}
      {report && <p className="sub">{t.received(visible(report.received))}</p>}
    </section>
  );
}

/** One piece of advice; what the app can set itself (prefix, suffix, the GS stand-in) comes with a button. */
function Advice({
  finding,
  onTake,
}: {
  finding: Finding;
  onTake: (change: Partial<DeviceSettings>) => void;
}) {
  const change: Partial<DeviceSettings> | null =
    finding.kind === 'prefix'
      ? { prefix: finding.text }
      : finding.kind === 'suffix'
        ? { suffix: finding.text }
        : finding.kind === 'groupSeparatorAs'
          ? { groupSeparatorAs: finding.text }
          : null;
  return (
    <li>
      {describeFinding(finding).advice}
      {change && (
        <button type="button" className="button button--inline" onClick={() => onTake(change)}>
          {scannerTestTexts.take}
        </button>
      )}
    </li>
  );
}
