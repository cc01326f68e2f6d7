import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { parseSmartProviders } from './smart-providers';

const riverside = {
  name: 'Riverside Health',
  fhirBaseUrl: 'https://fhir.riverside.example/api/FHIR/R4/',
  clientId: 'abc',
};

describe('SMART_PROVIDERS', () => {
  it('is none when not set', () => {
    expect(parseSmartProviders(undefined)).toEqual([]);
    expect(parseSmartProviders('  ')).toEqual([]);
  });

  it('reads JSON, and a JSON file by its path', () => {
    const expected = [
      {
        name: 'Riverside Health',
        fhirBaseUrl: 'https://fhir.riverside.example/api/FHIR/R4',
        clientId: 'abc',
        clientSecret: null,
        scopes: null,
      },
    ];
    expect(parseSmartProviders(JSON.stringify([riverside]))).toEqual(expected);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'kin-smart-')), 'providers.json');
    writeFileSync(file, JSON.stringify([riverside]));
    expect(parseSmartProviders(file)).toEqual(expected);
  });

  it('takes http only on this machine', () => {
    const local = { ...riverside, fhirBaseUrl: 'http://127.0.0.1:9000/fhir' };
    expect(parseSmartProviders(JSON.stringify([local]))[0]?.fhirBaseUrl).toBe(
      'http://127.0.0.1:9000/fhir',
    );
    const remote = { ...riverside, fhirBaseUrl: 'http://fhir.riverside.example/R4' };
    expect(() => parseSmartProviders(JSON.stringify([remote]))).toThrow(
      'SMART_PROVIDERS[0]: fhirBaseUrl must be https (http only on this machine: localhost, 127.0.0.1)',
    );
  });

  it('says what is wrong, and where', () => {
    expect(() => parseSmartProviders('[{')).toThrow(/^SMART_PROVIDERS is not valid JSON/);
    expect(() => parseSmartProviders('/no/such/file.json')).toThrow(
      'SMART_PROVIDERS must be JSON or the path of a JSON file (/no/such/file.json is not a file)',
    );
    expect(() => parseSmartProviders('{"name":"x"}')).toThrow(
      'SMART_PROVIDERS must be a JSON list of providers',
    );
    expect(() =>
      parseSmartProviders(JSON.stringify([riverside, { ...riverside, clientId: 'other' }])),
    ).toThrow("SMART_PROVIDERS: the name 'Riverside Health' is given twice");
    const { clientId: _, ...noClient } = riverside;
    expect(() => parseSmartProviders(JSON.stringify([riverside, noClient]))).toThrow(
      'SMART_PROVIDERS[1]: clientId is required',
    );
  });

  it('stops the server from starting when wrong', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kin-smart-config-'));
    expect(() => loadConfig({ DATA_DIR: dataDir, SMART_PROVIDERS: '[1]' })).toThrow(
      'SMART_PROVIDERS[0]',
    );
  });
});
