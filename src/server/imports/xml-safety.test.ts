import { describe, expect, it } from 'vitest';
import { XML_REFUSED, xmlRefusal } from './xml-safety';

const APPLE = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 13 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation)*)>
<!ATTLIST HealthData locale CDATA #REQUIRED>
]>
<HealthData locale="en_US">`;

describe('XML before it is parsed', () => {
  it('reads a C-CDA without a DOCTYPE, and refuses one with', () => {
    const ccda =
      '<?xml version="1.0"?>\n<?xml-stylesheet href="cda.xsl"?>\n<ClinicalDocument xmlns="urn:hl7-org:v3">';
    expect(xmlRefusal(ccda, 'none')).toBeNull();
    expect(xmlRefusal('<!DOCTYPE ClinicalDocument>\n<ClinicalDocument/>', 'none')).toBe(
      XML_REFUSED,
    );
  });

  it("lets Apple Health's own declarations through, and nothing that reaches further", () => {
    expect(xmlRefusal(APPLE, 'declarations-only')).toBeNull();
    const laughs = APPLE.replace(
      '<!ELEMENT',
      '<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;"><!ELEMENT',
    );
    expect(xmlRefusal(laughs, 'declarations-only')).toBe(XML_REFUSED);
    const outside =
      '<?xml version="1.0"?><!DOCTYPE HealthData SYSTEM "file:///etc/passwd"><HealthData>';
    expect(xmlRefusal(outside, 'declarations-only')).toBe(XML_REFUSED);
    const parameter = APPLE.replace('<!ELEMENT', '%remote;<!ELEMENT');
    expect(xmlRefusal(parameter, 'declarations-only')).toBe(XML_REFUSED);
  });

  it('refuses a file with no element within the first megabyte', () => {
    expect(xmlRefusal(`<?xml version="1.0"?><!--${'x'.repeat(2 * 1024 * 1024)}-->`, 'none')).toBe(
      XML_REFUSED,
    );
  });
});
