/**
 * The name of a file made of one person (a download of the server's, or an image the browser
 * makes), in letters, digits and dashes:
 * 'kin-health-fhir-leo-garcia-2026-11-23.json', 'kin-health-summary-zoe-odegard-2026-11-23.pdf'.
 */
export function personFileName(
  kind: string,
  person: { name: string },
  today: string,
  extension: string,
): string {
  const name = person.name
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_]+/g, '-')
    .toLowerCase();
  return `kin-health-${kind}-${name || 'person'}-${today}.${extension}`;
}
