import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { extractTar, tarEnd, tarHeader, tarPadding } from './tar.ts';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-tar-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function archive(entries: { name: string; content?: Buffer }[]): Buffer {
  const parts: Buffer[] = [];
  for (const { name, content } of entries) {
    if (!content) parts.push(tarHeader(name, 0, 'directory'));
    else parts.push(tarHeader(name, content.length, 'file'), content, tarPadding(content.length));
  }
  parts.push(tarEnd());
  return Buffer.concat(parts);
}

async function* chunks(buffer: Buffer, size = 700): AsyncGenerator<Buffer> {
  for (let i = 0; i < buffer.length; i += size) yield buffer.subarray(i, i + size);
}

const longName = `base/${'x'.repeat(90)}/${'y'.repeat(90)}/file`;
const files = [
  { name: 'base/' },
  { name: 'base/1/2608', content: Buffer.alloc(8192 * 3, 7) },
  { name: 'PG_VERSION', content: Buffer.from('18\n') },
  { name: 'empty', content: Buffer.alloc(0) },
  { name: longName, content: Buffer.from('long') },
];

describe('tar', () => {
  it('writes archives that GNU tar reads, names over 100 bytes included', () => {
    const file = path.join(work, 'gnu.tar');
    fs.writeFileSync(file, archive(files));
    const listed = spawnSync('tar', ['-tf', file], { encoding: 'utf8' });
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout.trim().split('\n')).toEqual(files.map((f) => f.name));
  });

  it('unpacks what it wrote, plain or gzip, in chunks of any size', async () => {
    for (const [n, data] of [archive(files), zlib.gzipSync(archive(files))].entries()) {
      const target = path.join(work, `out-${n}`);
      const names = await extractTar(chunks(data), target);
      expect(names).toEqual(files.map((f) => f.name.replace(/\/$/, '')));
      for (const f of files.filter((f) => f.content))
        expect(fs.readFileSync(path.join(target, f.name))).toEqual(f.content);
    }
  });

  it("unpacks GNU tar's archives, and PGlite's own dumps whose names begin with '/'", async () => {
    const source = path.join(work, 'src');
    fs.mkdirSync(path.join(source, 'global'), { recursive: true });
    fs.writeFileSync(path.join(source, 'global', 'pg_control'), Buffer.alloc(8192, 1));
    const file = path.join(work, 'gnu.tar.gz');
    expect(spawnSync('tar', ['-czf', file, '-C', source, 'global']).status).toBe(0);
    const target = path.join(work, 'gnu-out');
    await extractTar(chunks(fs.readFileSync(file), 4096), target);
    expect(fs.readFileSync(path.join(target, 'global', 'pg_control'))).toEqual(Buffer.alloc(8192, 1));
    const dumped = archive([
      { name: '/global' },
      { name: '/global/pg_control', content: Buffer.alloc(8192, 2) },
    ]);
    await extractTar(chunks(zlib.gzipSync(dumped)), path.join(work, 'dump-out'));
    expect(fs.readFileSync(path.join(work, 'dump-out', 'global', 'pg_control'))).toEqual(
      Buffer.alloc(8192, 2),
    );
  });

  it('refuses an archive cut short and an entry that leaves the folder', async () => {
    const whole = archive(files);
    await expect(extractTar(chunks(whole.subarray(0, 9000)), path.join(work, 'cut'))).rejects.toThrow(
      /cut short/,
    );
    const escaping = archive([{ name: '../outside', content: Buffer.from('x') }]);
    await expect(extractTar(chunks(escaping), path.join(work, 'escape'))).rejects.toThrow(/outside/);
    expect(fs.existsSync(path.join(work, 'outside'))).toBe(false);
    const damaged = Buffer.from(whole);
    damaged[0] = 0x41;
    await expect(extractTar(chunks(damaged), path.join(work, 'damaged'))).rejects.toThrow(/damaged/);
  });
});
