// Talks to a server started from the container image as a browser would (scripts/test-image.sh):
//
//   node scripts/try-image.mjs URL PASSCODE EMAIL [--records-only]
//
// Waits for /api/health, signs up, writes a note and reads it back; without --records-only
// also the summary PDF, a HEIC photo's thumbnail and a scan's OCR: what only the image's own
// files (fonts, the HEIC decoder and sharp, the OCR language data) make work.
import { readFileSync } from 'node:fs';

const [url, passcode, email, mode] = process.argv.slice(2);
const check = (ok, what) => {
  if (!ok) throw new Error(what);
  console.log(`ok: ${what}`);
};

const deadline = Date.now() + 60_000;
for (;;) {
  const health = await fetch(`${url}/api/health`).catch(() => null);
  if (health?.status === 200) break;
  if (Date.now() > deadline) throw new Error('/api/health did not answer 200 within 60 s');
  await new Promise((resolve) => setTimeout(resolve, 500));
}
console.log('ok: /api/health answers 200');

const page = await fetch(`${url}/`);
check(
  page.status === 200 && (await page.text()).includes('<div id="root"'),
  'the web app is served at /',
);

const signUp = await fetch(`${url}/api/auth/sign-up/email`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: url },
  body: JSON.stringify({
    name: 'Image Test',
    email,
    password: 'a long and unusual image test password 42',
    passcode,
  }),
});
check(
  signUp.status === 200,
  `sign-up answers 200 (${signUp.status}: ${signUp.ok ? '' : await signUp.text()})`,
);
const cookie = signUp.headers
  .getSetCookie()
  .map((c) => c.split(';')[0])
  .join('; ');
check(cookie.length > 0, 'sign-up sets a session cookie');

const headers = { 'content-type': 'application/json', origin: url, cookie };
const title = `Written in the image ${Date.now()}`;
const created = await fetch(`${url}/api/notes`, {
  method: 'POST',
  headers,
  body: JSON.stringify({ title }),
});
const createdBody = await created.json();
check(
  created.status === 201,
  `POST /api/notes answers 201 (${created.status}: ${JSON.stringify(createdBody)})`,
);
const id = createdBody.id ?? createdBody.item?.id;
check(typeof id === 'string' || typeof id === 'number', `the new note has an id (${id})`);

const read = await fetch(`${url}/api/notes/${id}`, { headers });
const readBody = await read.json();
check(
  read.status === 200 && JSON.stringify(readBody).includes(title),
  'GET /api/notes/:id gives the note back',
);

if (mode === '--records-only') process.exit(0);

// What only the image's own files make work: the PDF summary's fonts, the HEIC decoder and
// sharp, the OCR's language data (never fetched from a CDN).
const session = await (await fetch(`${url}/api/auth/get-session`, { headers })).json();
const summary = await fetch(`${url}/api/persons/${session.user.id}/summary.pdf`, { headers });
const pdf = Buffer.from(await summary.arrayBuffer());
check(
  summary.status === 200 && pdf.subarray(0, 5).toString() === '%PDF-',
  `the summary PDF is made (${pdf.length} bytes)`,
);

const upload = async (bytes, fileName) => {
  const response = await fetch(
    `${url}/api/documents?${new URLSearchParams({ title: fileName, document_type: 'Letter', file_name: fileName })}`,
    {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: bytes,
    },
  );
  const body = await response.json();
  check(
    response.status === 201,
    `${fileName} is uploaded (${response.status}: ${body.message ?? ''})`,
  );
  return body;
};
const photo = await upload(
  readFileSync('src/server/documents/fixtures/rainbow-451x461.heic'),
  'IMG_0001.HEIC',
);
const thumbnail = await fetch(`${url}${photo.thumbnail_url}`, { headers });
check(
  thumbnail.status === 200 && thumbnail.headers.get('content-type') === 'image/webp',
  'the HEIC photo has a WebP thumbnail',
);

const { createCanvas } = await import('@napi-rs/canvas');
const canvas = createCanvas(900, 220);
const context = canvas.getContext('2d');
context.fillStyle = '#fff';
context.fillRect(0, 0, 900, 220);
context.fillStyle = '#000';
context.font = 'bold 72px sans-serif';
context.fillText('BLOOD PRESSURE', 40, 140);
const scan = await upload(canvas.toBuffer('image/png'), 'scan.png');
const reading = Date.now() + 120_000;
let text;
for (;;) {
  text = await (await fetch(`${url}/api/documents/${scan.id}/text`, { headers })).json();
  if (text.status === 'done' || text.status === 'failed' || Date.now() > reading) break;
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
check(
  text.status === 'done' && /BLOOD\s+PRESSURE/i.test(text.text ?? ''),
  `OCR reads the scan (${JSON.stringify(text)})`,
);
