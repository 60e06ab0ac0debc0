import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import {
  type DruckerEintrag,
  druckerListe,
  druckTexts as etikettenTexts,
} from '../../../contract/etiketten-druck.ts';
import { texts } from '../../../contract/texts.ts';
import { api } from '../../api/api.ts';
import { messageOf } from '../../api/message.ts';
import { paths } from '../../paths.ts';
import { type DeviceSettings, readDeviceSettings, saveDeviceSettings } from '../../ui/device-settings.ts';
import { feedback } from '../../ui/feedback.ts';
import { LanguageSetting } from './language-setting.tsx';

/**
 * Einstellungen: the worker's own language (kept with the user), then this handheld's sound, volume,
 * vibration and name. Every change is saved at once; the device's are kept across logins on this device.
 */
export default function SettingsScreen() {
  const [settings, setSettings] = useState<DeviceSettings>(readDeviceSettings);
  const ids = {
    sound: useId(),
    volume: useId(),
    vibration: useId(),
    name: useId(),
    prefix: useId(),
    suffix: useId(),
    gs: useId(),
    doubleRead: useId(),
    printer: useId(),
  };
  // The printers this station may send labels to (issue 21); the chosen one is kept with the device.
  const [printers, setPrinters] = useState<DruckerEintrag[] | null>(null);
  const [printersProblem, setPrintersProblem] = useState('');
  useEffect(() => {
    let live = true;
    api.call(druckerListe).then(
      (answer) => live && setPrinters(answer.drucker),
      (error: unknown) => live && setPrintersProblem(messageOf(error)),
    );
    return () => {
      live = false;
    };
  }, []);
  const checkField = (id: string, label: string, key: 'sound' | 'vibration') => (
    <div className="field field--check">
      <input
        id={id}
        type="checkbox"
        checked={settings[key]}
        onChange={(e) => change({ [key]: e.target.checked })}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
  const textField = (
    id: string,
    label: string,
    key: 'prefix' | 'suffix' | 'groupSeparatorAs' | 'deviceName',
    placeholder?: string,
  ) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="scan-input"
        type="text"
        maxLength={40}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        value={settings[key]}
        onChange={(e) => change({ [key]: e.target.value })}
      />
    </div>
  );
  const change = (next: Partial<DeviceSettings>) => {
    const merged = { ...settings, ...next };
    setSettings(merged);
    saveDeviceSettings(merged);
  };
  return (
    <form className="stack" onSubmit={(e) => e.preventDefault()}>
      <LanguageSetting />
      {checkField(ids.sound, texts.settings.sound, 'sound')}
      <div className="field">
        <label htmlFor={ids.volume}>{texts.settings.volume}</label>
        <input
          id={ids.volume}
          type="range"
          min={0}
          max={100}
          step={10}
          disabled={!settings.sound}
          value={Math.round(settings.volume * 100)}
          onChange={(e) => change({ volume: Number(e.target.value) / 100 })}
        />
      </div>
      {checkField(ids.vibration, texts.settings.vibration, 'vibration')}
      {textField(ids.name, texts.settings.deviceName, 'deviceName', texts.settings.deviceNameHint)}
      <p className="hint">{texts.settings.scannerHint}</p>
      {textField(ids.prefix, texts.settings.prefix, 'prefix')}
      {textField(ids.suffix, texts.settings.suffix, 'suffix')}
      {textField(ids.gs, texts.settings.groupSeparatorAs, 'groupSeparatorAs')}
      <div className="field">
        <label htmlFor={ids.doubleRead}>{texts.settings.doubleRead}</label>
        <input
          id={ids.doubleRead}
          className="scan-input"
          type="number"
          inputMode="numeric"
          min={0}
          max={2000}
          step={50}
          value={settings.doubleReadMs}
          onChange={(e) => {
            const ms = Number(e.target.value);
            if (Number.isInteger(ms) && ms >= 0 && ms <= 2000) change({ doubleReadMs: ms });
          }}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.printer}>{etikettenTexts.settingsPrinter}</label>
        <select
          id={ids.printer}
          className="scan-input"
          aria-describedby={`${ids.printer}-hint`}
          value={settings.printer}
          onChange={(e) => change({ printer: e.target.value })}
        >
          <option value="">{etikettenTexts.settingsNone}</option>
          {settings.printer && !printers?.some((p) => p.name === settings.printer) && (
            <option value={settings.printer}>{settings.printer}</option>
          )}
          {printers?.map((p) => (
            <option key={p.name} value={p.name}>
              {etikettenTexts.printerLabel(p)}
            </option>
          ))}
        </select>
        <p id={`${ids.printer}-hint`} className="hint">
          {printersProblem || etikettenTexts.settingsHint}
        </p>
      </div>
      <div className="inline">
        <Link className="button button--secondary" to={paths.scannerTest}>
          {texts.settings.scannerTest}
        </Link>
        <Link className="button button--secondary" to={paths.testSheet}>
          {texts.settings.testSheet}
        </Link>
      </div>
      <div className="inline">
        <button type="button" className="button" onClick={() => feedback.success()}>
          {texts.settings.testSuccess}
        </button>
        <button type="button" className="button button--danger" onClick={() => feedback.error()}>
          {texts.settings.testError}
        </button>
      </div>
      <p className="hint">{texts.settings.saved}</p>
    </form>
  );
}
