import { useState } from 'react';
import { texts } from '../../../contract/texts.ts';
import { locationContent } from '../../../contract/umbuchung.ts';
import { api } from '../../api/api.ts';
import { lookUpLocation } from '../../api/lookups.ts';
import { messageOf } from '../../api/message.ts';
import { useBanner } from '../../ui/banner.tsx';
import { type ContentRow, LocationContentTable } from '../../ui/location-content-table.tsx';
import { PrintLabelButton } from '../../ui/print-label.tsx';
import { ScanField } from '../../ui/scan-field.tsx';

/**
 * Lagerplatzprüfung (SPEC §2): scan a location, see what lies there. The field empties and keeps the focus,
 * so the next location is scanned without touching the screen. 'Etikett drucken' prints that location's label
 * on the station's printer (issue 21).
 */
export default function LagercheckScreen() {
  const banner = useBanner();
  const [text, setText] = useState('');
  const [shown, setShown] = useState<{ code: string; name: string; rows: ContentRow[] } | null>(null);

  async function check(code: string) {
    setText('');
    const found = await lookUpLocation(code);
    if (!found.ok) {
      banner.showError(found.message);
      setShown(null);
      return;
    }
    try {
      const rows = await api.call(locationContent, { params: { lpId: found.value.id } });
      setShown({ code: found.value.code, name: found.value.name, rows });
    } catch (error) {
      banner.showError(messageOf(error));
    }
  }

  return (
    <div className="stack">
      <ScanField current label={texts.lagercheck.location} value={text} onChange={setText} onScan={check} />
      {shown && (
        <>
          <LocationContentTable heading={texts.lagercheck.contentOf(shown.name)} rows={shown.rows} />
          <PrintLabelButton key={shown.code} kind="lagerplatz" code={shown.code} />
        </>
      )}
    </div>
  );
}
