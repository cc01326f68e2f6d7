import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ccdaNarrativeHtml } from './ccda-narrative';

const HL7_CCD = fileURLToPath(new URL('../testdata/ccda/hl7/ccd.xml', import.meta.url));

const documentWith = (narrative: string) => `<?xml version="1.0"?>
<ClinicalDocument xmlns="urn:hl7-org:v3"><component><structuredBody><component><section>
<title>Allergies &amp; Intolerances</title><text>${narrative}</text>
</section></component></structuredBody></component></ClinicalDocument>`;

/** The tags and attributes left in rendered HTML. */
const tagsOf = (html: string) => [...html.matchAll(/<\/?([a-z0-9]+)([^>]*)>/g)];

describe('a C-CDA narrative as HTML', () => {
  it("renders each section's title and narrative with CDA's tables, lists and paragraphs", () => {
    const html = ccdaNarrativeHtml(
      documentWith(
        '<table border="1" width="100%"><thead><tr><th>Substance</th></tr></thead><tbody>' +
          '<tr><td ID="a1" colspan="2" styleCode="Bold"><content ID="r1">Penicillin</content></td></tr>' +
          '</tbody></table><list listType="unordered"><item>Hives<br/>since 1998</item></list>' +
          '<paragraph>Reviewed &lt;today&gt;</paragraph>',
      ),
    );
    expect(html).toBe(
      '<section><h2>Allergies &amp; Intolerances</h2><table><thead><tr><th>Substance</th></tr></thead>' +
        '<tbody><tr><td colspan="2"><span>Penicillin</span></td></tr></tbody></table>' +
        '<ul><li>Hives<br>since 1998</li></ul><p>Reviewed &lt;today&gt;</p></section>',
    );
  });

  it('never lets a script, an event handler or a link through', () => {
    const html = ccdaNarrativeHtml(
      documentWith(
        '<script>alert(1)</script><content onerror="alert(2)" style="x">x</content>' +
          '<renderMultiMedia referencedObject="img1"/><linkHtml href="javascript:alert(3)">link</linkHtml>' +
          '<td rowspan="2&quot; onclick=&quot;alert(4)">y</td><paragraph>&lt;img src=x onerror=alert(5)&gt;</paragraph>',
      ),
    );
    for (const [, tag, attributes] of tagsOf(html)) {
      expect(['section', 'h2', 'span', 'td', 'p']).toContain(tag);
      expect(attributes).toMatch(/^( (colspan|rowspan)="\d+")*$/);
    }
    expect(html).not.toMatch(/<script|<[^>]*\son\w+=|<[^>]*href=|<[^>]*style=/i);
    // What the file wrote as text stays text, escaped.
    expect(html).toContain('alert(1)');
    expect(html).toContain('&lt;img src=x onerror=alert(5)&gt;');
  });

  it('renders nothing from a file with a DOCTYPE or entities', () => {
    expect(ccdaNarrativeHtml(`<!DOCTYPE x [<!ENTITY e "boom">]>${documentWith('&e;')}`)).toBe('');
  });

  it("renders every section of HL7's example CCD", () => {
    const html = ccdaNarrativeHtml(readFileSync(HL7_CCD, 'utf8'));
    expect(html).toContain('<h2>ALLERGIES AND ADVERSE REACTIONS</h2>');
    expect(html).toContain('Penicillin');
    expect(html).toContain('<table>');
    expect(html.match(/<section>/g)?.length).toBeGreaterThan(10);
    for (const [, tag, attributes] of tagsOf(html)) {
      expect([
        'section',
        'h2',
        'table',
        'thead',
        'tbody',
        'tfoot',
        'tr',
        'th',
        'td',
        'caption',
        'ul',
        'li',
        'p',
        'span',
        'br',
      ]).toContain(tag);
      expect(attributes).toMatch(/^( (colspan|rowspan)="\d+")*$/);
    }
  });
});
