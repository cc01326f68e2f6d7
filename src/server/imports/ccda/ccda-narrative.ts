/**
 * A C-CDA's human-readable narrative as HTML that is safe to show (decision 0054): each
 * section's title and its `<text>` block, with CDA's narrative elements turned into a short
 * list of HTML tags (table, thead, tbody, tfoot, tr, th, td, caption, ul/li for list/item,
 * p for paragraph, span for content, br) and no attribute but a numeric colspan or rowspan.
 * Every other element gives only its text; every text is escaped. So nothing a file writes —
 * a script, an event handler, a style, a link — reaches the page as markup.
 */
import { XMLParser } from 'fast-xml-parser';
import { xmlRefusal } from '../xml-safety';

/** A node as fast-xml-parser reads it in document order (`preserveOrder`). */
type Ordered = Record<string, unknown>;

/** CDA narrative elements and the HTML each becomes. */
const TAGS: Record<string, string> = {
  table: 'table',
  thead: 'thead',
  tbody: 'tbody',
  tfoot: 'tfoot',
  tr: 'tr',
  th: 'th',
  td: 'td',
  caption: 'caption',
  list: 'ul',
  item: 'li',
  paragraph: 'p',
  content: 'span',
  br: 'br',
};
/** Elements whose content is never shown (pictures, comments to machines). */
const DROPPED = new Set(['renderMultiMedia', '#comment', '?xml', '?xml-stylesheet']);
const SPANS = ['colspan', 'rowspan'];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const localName = (name: string) => name.replace(/^[^:]*:/, '');

/** The element name of an ordered node (its one key that is not its attributes). */
const nameOf = (node: Ordered) => Object.keys(node).find((key) => key !== ':@') ?? '';

function childrenOf(node: Ordered): Ordered[] {
  const value = node[nameOf(node)];
  return Array.isArray(value) ? (value as Ordered[]) : [];
}

function attribute(node: Ordered, name: string): string | null {
  const attributes = node[':@'] as Record<string, unknown> | undefined;
  const value = attributes?.[`@_${name}`];
  return typeof value === 'string' ? value : null;
}

function renderNodes(list: Ordered[]): string {
  return list.map(renderNode).join('');
}

function renderNode(node: Ordered): string {
  const name = nameOf(node);
  if (name === '#text') return escapeHtml(String(node['#text'] ?? ''));
  const local = localName(name);
  if (DROPPED.has(name) || DROPPED.has(local)) return '';
  const inner = renderNodes(childrenOf(node));
  const tag = TAGS[local];
  if (!tag) return inner;
  if (tag === 'br') return '<br>';
  const spans = SPANS.flatMap((span) => {
    const value = attribute(node, span);
    return value && /^[1-9]\d{0,2}$/.test(value) ? [` ${span}="${value}"`] : [];
  });
  return `<${tag}${spans.join('')}>${inner}</${tag}>`;
}

function childNamed(list: Ordered[], name: string): Ordered[] {
  return list.filter((node) => localName(nameOf(node)) === name);
}

/** Sections and the sections they nest, in document order. */
function renderSections(components: Ordered[]): string {
  return components
    .flatMap((component) => childNamed(childrenOf(component), 'section'))
    .map((section) => {
      const parts = childrenOf(section);
      const title = childNamed(parts, 'title')
        .map((node) => renderNodes(childrenOf(node)))
        .join(' ')
        .trim();
      const text = childNamed(parts, 'text')
        .map((node) => renderNodes(childrenOf(node)))
        .join('');
      const nested = renderSections(childNamed(parts, 'component'));
      return `<section>${title ? `<h2>${title}</h2>` : ''}${text}${nested}</section>`;
    })
    .join('');
}

/**
 * The document's sections (title and narrative) as sanitised HTML; empty when the file is
 * refused (a DOCTYPE or entities) or holds no structured body.
 */
export function ccdaNarrativeHtml(xmlText: string): string {
  if (xmlRefusal(xmlText, 'none')) return '';
  let document: Ordered[];
  try {
    document = new XMLParser({
      preserveOrder: true,
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: false,
      commentPropName: '#comment',
      htmlEntities: false,
    }).parse(xmlText) as Ordered[];
  } catch {
    return '';
  }
  const root = childNamed(document, 'ClinicalDocument')[0];
  if (!root) return '';
  const body = childNamed(childrenOf(root), 'component').flatMap((component) =>
    childNamed(childrenOf(component), 'structuredBody'),
  );
  return body
    .map((structured) => renderSections(childNamed(childrenOf(structured), 'component')))
    .join('');
}

/** The page a kept C-CDA is shown as: its title and its sections, with a plain style sheet. */
const NARRATIVE_STYLE = `body{font:15px/1.5 system-ui,sans-serif;color:#0f1f24;margin:16px;overflow-wrap:anywhere}
h1{font-size:1.3em;margin:0 0 .5em}h2{font-size:1.05em;margin:1.5em 0 .4em;padding-top:.5em;border-top:1px solid #dbe4e6}
table{border-collapse:collapse;width:100%;margin:.4em 0;font-size:.9em}th,td{border:1px solid #dbe4e6;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#eef3f3}caption{text-align:left;font-weight:600}`;

export function ccdaNarrativePage(xmlText: string): string {
  const sections = ccdaNarrativeHtml(xmlText);
  // The document's own title comes first, in its header, before any section's.
  const title =
    /<title>([^<]{1,200})<\/title>/.exec(xmlText.slice(0, 65_536))?.[1]?.trim() || 'Health record';
  const escapedTitle = title.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapedTitle}</title><style>${NARRATIVE_STYLE}</style></head>` +
    `<body><h1>${escapedTitle}</h1>` +
    (sections || '<p>This document has no narrative to show. Download it to read it.</p>') +
    `</body></html>`
  );
}
