/**
 * A file's kind told by its content (recognise-file.ts): each kind from its first bytes or a
 * zip's directory, whatever its name; XML with a document type or an entity, and a zip that
 * would expand past its bounds, refused before anything reads them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { zipArchive } from '../data-transfer/export-archive';
import { NOT_IMPORTABLE } from '../../shared/imports';
import { headOf, recogniseFile, ZIP_TOO_LARGE } from './recognise-file';
import { XML_REFUSED } from './xml-safety';

const folder = await mkdtemp(path.join(tmpdir(), 'kin-recognise-'));
afterAll(() => rm(folder, { recursive: true, force: true }));
let files = 0;

async function kindOf(content: string | Buffer) {
  const file = path.join(folder, `file-${(files += 1)}`);
  await writeFile(file, content);
  return recogniseFile(file, await headOf(file));
}

async function zipOf(entries: { name: string; data: Buffer | string }[]): Promise<Buffer> {
  const archive = zipArchive();
  for (const { name, data } of entries) archive.append(data, { name });
  const done = buffer(archive);
  await archive.finalize();
  return done;
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: { status: number; message: string }) => ({
      status: error.status,
      message: error.message,
    }),
  );

describe('recogniseFile', () => {
  it('tells each kind by its content', async () => {
    expect(await kindOf('{"format":"kin-health-export","version":2}')).toEqual({
      kind: 'kin-health-export',
      zip: false,
    });
    expect((await kindOf('\uFEFF { "resourceType": "Bundle", "type": "collection" }')).kind).toBe(
      'fhir',
    );
    expect(
      (await kindOf('<?xml version="1.0"?>\n<ClinicalDocument xmlns="urn:hl7-org:v3"><id/>')).kind,
    ).toBe('ccda');
    const apple =
      '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData (ExportDate,Me)>\n<!ATTLIST HealthData locale CDATA #REQUIRED>\n]>\n<HealthData locale="en_US">';
    expect((await kindOf(apple)).kind).toBe('apple-health');
    expect((await kindOf('Date,Weight (lb)\n2024-01-01,150\n')).kind).toBe('csv');
    expect(
      await kindOf(
        await zipOf([{ name: 'kin-health.json', data: '{"format":"kin-health-export"}' }]),
      ),
    ).toEqual({ kind: 'kin-health-export', zip: true });
    expect(
      await kindOf(
        await zipOf([
          { name: 'apple_health_export/export.xml', data: apple },
          { name: 'apple_health_export/clinical-records/a.json', data: '{}' },
        ]),
      ),
    ).toEqual({ kind: 'apple-health', zip: true });
  });

  it('refuses what is none of them', async () => {
    for (const content of [
      '{"hello":"world"}',
      'one line of words',
      '<ClinicalDocument/>',
      '<html><body/></html>',
      Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x01]),
    ]) {
      expect(await refusal(kindOf(content))).toEqual({ status: 400, message: NOT_IMPORTABLE });
    }
    expect(await refusal(kindOf(await zipOf([{ name: 'notes.txt', data: 'hi' }])))).toEqual({
      status: 400,
      message: NOT_IMPORTABLE,
    });
  });

  it('refuses XML with an entity or an outside document type before parsing it', async () => {
    const entity =
      '<?xml version="1.0"?><!DOCTYPE HealthData [<!ENTITY a "aaaa">]><HealthData>&a;</HealthData>';
    const outside = '<!DOCTYPE ClinicalDocument SYSTEM "file:///etc/passwd"><ClinicalDocument/>';
    for (const content of [entity, outside]) {
      expect(await refusal(kindOf(content))).toEqual({ status: 400, message: XML_REFUSED });
    }
  });

  it('refuses a zip bomb from its directory, without inflating it', async () => {
    const bomb = await zipOf([
      { name: 'apple_health_export/export.xml', data: Buffer.alloc(64 * 1024 * 1024) },
    ]);
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    expect(await refusal(kindOf(bomb))).toEqual({ status: 413, message: ZIP_TOO_LARGE });
  });
});
