import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seriousAxeFindings } from './support/axe.ts';
import { ADMIN, loginAs } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

/**
 * Leitstand › Datensicherung (decision 29): the admin sees that no backup was noted yet; `npm run backup`
 * taken from the running server (its socket in the data folder) while the page is open; after a reload the
 * page shows it, without the warning.
 */
const root = path.resolve(import.meta.dirname, '..');

test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false });

test('an admin sees the missing backup warned about, and the one npm run backup took from the running server', async ({
  page,
}) => {
  const dataDir = process.env.E2E_DATA_DIR;
  test.skip(!dataDir, 'a server someone else runs (E2E_BASE_URL): its data folder is not ours to back up');
  await loginAs(page, ADMIN);
  await page.getByRole('link', { name: 'Leitstand' }).click();
  await page
    .getByRole('navigation', { name: 'Bereiche des Leitstands' })
    .getByRole('link', { name: 'Datensicherung' })
    .click();
  await expect(page.getByRole('heading', { name: 'Datensicherung', level: 1 })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(
    'Es ist noch keine Datensicherung verzeichnet. Bitte die nächtliche Sicherung einrichten (docs/operating.md, Abschnitt „Operating it“).',
  );
  expect(await seriousAxeFindings(page)).toEqual([]);

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-e2e-backup-'));
  try {
    const file = path.join(work, 'lager.bak');
    const backup = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/server/cli/backup.ts', 'create', file],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir ?? '' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(backup.status, `${backup.stdout}${backup.stderr}`).toBe(0);
    expect(backup.stdout).toContain('taken by the running server while it served');
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }

  await page.reload();
  await expect(page.getByText('Die letzte Sicherung ist weniger als einen Tag alt.')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  const facts = page.getByRole('region', { name: 'Letzte Sicherung' });
  await expect(facts.getByText('im laufenden Betrieb')).toBeVisible();
  await expect(facts.getByText('Eingebettete Datenbank (PGlite)')).toBeVisible();
  await expect(facts.getByText(/^\d+,\d MB$/)).toBeVisible();
  expect(await seriousAxeFindings(page)).toEqual([]);
});
