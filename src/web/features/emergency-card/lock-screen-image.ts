/**
 * 'Save as image': the card's essentials and its QR code as a PNG the size of a phone's lock
 * screen (portrait, LOCK_SCREEN_SIZE), drawn on a canvas in the browser: nothing leaves the
 * device. The top third stays empty for the lock screen's clock; the QR code sits at the
 * bottom centre, clear of the torch and camera buttons in the corners. Its words are the
 * app's language's, from the right in a right-to-left one.
 */
import { doseText, LOCK_SCREEN_SIZE, type EmergencyCard } from '../../../shared/emergency-card';
import { currentLanguage, key, tr } from '../../../shared/i18n/translate';
import { languageOf } from '../../../shared/i18n/languages';
import { personFileName } from '../../../shared/person-file-name';

const { width: WIDTH, height: HEIGHT } = LOCK_SCREEN_SIZE;
const MARGIN = 100;
const TEXT_WIDTH = WIDTH - 2 * MARGIN;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
const QR_SIZE = 460;
const QR_TOP = 1790;
/** Where the text must end: above the QR code, or near the bottom without one. */
const textBottom = (withQr: boolean) => (withQr ? QR_TOP - 60 : HEIGHT - 260);

interface Line {
  text: string;
  size: number;
  weight: 400 | 600 | 700;
  color: string;
  /** Space above the line. */
  gap: number;
  /** A section's title, not one of the card's entries. */
  heading?: true;
}

/** The card's essentials, a line each (long ones are wrapped when drawn). */
export function lockScreenLines(card: EmergencyCard): Line[] {
  const heading = (text: string, color = '#0f766e'): Line => ({
    text: text.toUpperCase(),
    size: 34,
    weight: 700,
    color,
    gap: 34,
    heading: true,
  });
  const item = (text: string): Line => ({ text, size: 38, weight: 400, color: '#0f1f24', gap: 8 });
  const section = (title: string, items: string[], color?: string) =>
    items.length ? [heading(tr(title), color), ...items.map(item)] : [];
  return [
    ...section(
      key('Allergies'),
      card.allergies.map(({ substance, severity, reaction }) =>
        [substance, severity && tr(severity), reaction].filter(Boolean).join(' · '),
      ),
      '#b42318',
    ),
    ...section(
      key('Medications'),
      card.medications.map((medication) =>
        [medication.medication_name, doseText(medication)].filter(Boolean).join(' · '),
      ),
    ),
    ...section(
      key('Conditions'),
      card.conditions.map(({ condition_name }) => condition_name),
    ),
    ...section(
      key('Emergency Contacts'),
      card.emergency_contacts.map(({ contact_name, phone_number }) =>
        [contact_name, phone_number].filter(Boolean).join(' · '),
      ),
    ),
  ];
}

/**
 * How many of the lines fit between `top` and `limit`, drawn one under another, and how many
 * of the card's entries are left out (its sections' titles are not entries): `height` is a
 * line's height with its space above, as wrapped to the width.
 */
export function linesThatFit(
  lines: readonly Line[],
  height: (line: Line) => number,
  top: number,
  limit: number,
): { drawn: number; more: number } {
  let y = top;
  for (const [index, line] of lines.entries()) {
    y += height(line);
    if (y > limit) {
      return { drawn: index, more: lines.slice(index).filter((each) => !each.heading).length };
    }
  }
  return { drawn: lines.length, more: 0 };
}

function fontOf(line: Pick<Line, 'size' | 'weight'>) {
  return `${line.weight} ${line.size}px ${FONT}`;
}

/** A line broken into the pieces that fit the width, a word at a time. */
function wrap(context: CanvasRenderingContext2D, text: string, width: number): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/)) {
    const next = current ? `${current} ${word}` : word;
    if (current && context.measureText(next).width > width) {
      pieces.push(current);
      current = word;
    } else current = next;
  }
  if (current) pieces.push(current);
  return pieces;
}

/** Draws the image; answers its PNG. */
export async function lockScreenImage(
  card: EmergencyCard,
  link: string | null,
  born: string | null,
): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  const context = canvas.getContext('2d');
  if (!context) throw new Error(tr('This browser cannot draw images'));
  // Right to left: each line starts at the right margin, and the badge sits on the right.
  const rtl = languageOf(currentLanguage()).dir === 'rtl';
  context.direction = rtl ? 'rtl' : 'ltr';
  context.textAlign = 'start';
  const startX = rtl ? WIDTH - MARGIN : MARGIN;

  const backdrop = context.createLinearGradient(0, 0, 0, HEIGHT);
  backdrop.addColorStop(0, '#0b1416');
  backdrop.addColorStop(1, '#0f3b37');
  context.fillStyle = backdrop;
  context.fillRect(0, 0, WIDTH, HEIGHT);

  // Who it is, below the clock.
  context.textBaseline = 'top';
  context.fillStyle = '#f04438';
  context.beginPath();
  context.font = fontOf({ size: 36, weight: 700 });
  const badge = tr('Emergency card').toUpperCase();
  const badgeWidth = Math.max(420, context.measureText(badge).width + 64);
  context.roundRect(rtl ? WIDTH - MARGIN - badgeWidth : MARGIN, 780, badgeWidth, 70, 35);
  context.fill();
  context.fillStyle = '#ffffff';
  context.fillText(badge, rtl ? startX - 32 : startX + 32, 797);
  context.font = fontOf({ size: 76, weight: 700 });
  const name = wrap(context, card.person.name, TEXT_WIDTH).slice(0, 2);
  let y = 890;
  for (const piece of name) {
    context.fillText(piece, startX, y);
    y += 88;
  }
  if (born) {
    context.font = fontOf({ size: 40, weight: 400 });
    context.fillStyle = '#d7e3e4';
    context.fillText(born, startX, y + 4);
    y += 60;
  }

  // The essentials on a light panel, as many lines as fit.
  const panelTop = y + 30;
  const bottom = textBottom(link !== null);
  context.fillStyle = '#ffffff';
  context.beginPath();
  context.roundRect(MARGIN - 40, panelTop, WIDTH - 2 * (MARGIN - 40), bottom - panelTop, 40);
  context.fill();
  y = panelTop + 10;
  const lines = lockScreenLines(card);
  // Each line is wrapped once: to find what fits, and then to draw it.
  const wrapped = new Map<Line, string[]>();
  const piecesOf = (line: Line) => {
    let pieces = wrapped.get(line);
    if (!pieces) {
      context.font = fontOf(line);
      pieces = wrap(context, line.text, TEXT_WIDTH);
      wrapped.set(line, pieces);
    }
    return pieces;
  };
  const { drawn, more } = linesThatFit(
    lines,
    (line) => line.gap + piecesOf(line).length * (line.size + 10),
    y,
    bottom - 60,
  );
  for (const line of lines.slice(0, drawn)) {
    y += line.gap;
    context.font = fontOf(line);
    context.fillStyle = line.color;
    for (const piece of piecesOf(line)) {
      context.fillText(piece, startX, y);
      y += line.size + 10;
    }
  }
  if (more > 0) {
    context.font = fontOf({ size: 34, weight: 600 });
    context.fillStyle = '#51636a';
    context.fillText(tr('…and {count} more on the card', { count: more }), startX, y + 16);
  }
  if (lines.length === 0) {
    context.font = fontOf({ size: 38, weight: 400 });
    context.fillStyle = '#51636a';
    context.fillText(tr('No allergies, medications or conditions recorded'), startX, y + 30);
  }

  if (link) {
    const { toCanvas } = await import('qrcode');
    const qr = document.createElement('canvas');
    await toCanvas(qr, link, { errorCorrectionLevel: 'M', margin: 2, width: QR_SIZE });
    const left = (WIDTH - QR_SIZE) / 2;
    context.fillStyle = '#ffffff';
    context.beginPath();
    context.roundRect(left - 20, QR_TOP - 20, QR_SIZE + 40, QR_SIZE + 40, 28);
    context.fill();
    context.drawImage(qr, left, QR_TOP, QR_SIZE, QR_SIZE);
    context.font = fontOf({ size: 34, weight: 600 });
    context.fillStyle = '#ffffff';
    context.textAlign = 'center';
    context.fillText(tr('Scan for medical details'), WIDTH / 2, QR_TOP + QR_SIZE + 50);
  }

  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error(tr('The image could not be made')))),
      'image/png',
    ),
  );
}

/** The image's file name: 'kin-health-emergency-card-leo-garcia-2026-06-15.png'. */
export const lockScreenFileName = (card: EmergencyCard) =>
  personFileName('emergency-card', card.person, card.today, 'png');
