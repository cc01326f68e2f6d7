/**
 * A passkey authenticator in software, for API tests of the WebAuthn ceremonies: it answers
 * the server's options as a browser with a platform authenticator would (attestation
 * 'none', an ES256 key), so that registration and sign-in run through better-auth's plugin
 * and SimpleWebAuthn's checks unchanged. The browser tests use Chromium's own virtual
 * authenticator instead.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/** A CBOR item's head: its major type and its length or value. */
function head(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value]);
  if (value < 256) return Buffer.from([(major << 5) | 24, value]);
  if (value < 65536) return Buffer.from([(major << 5) | 25, value >> 8, value & 255]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(value, 1);
  return out;
}

type Cbor = number | string | Buffer | Map<number | string, Cbor>;

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  const parts = [head(5, value.size)];
  for (const [key, item] of value) parts.push(cbor(key), cbor(item));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer) => data.toString('base64url');

function counterBytes(counter: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(counter);
  return out;
}

/** User present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private counter = 0;

  constructor(
    readonly origin: string,
    /** Whether it verifies the person (a PIN or a fingerprint), as a passkey must here. */
    private readonly verifiesUser = true,
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private flags(extra = 0): Buffer {
    return Buffer.from([UP | (this.verifiesUser ? UV : 0) | extra]);
  }

  private clientData(type: string, challenge: string): Buffer {
    return Buffer.from(
      JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }),
    );
  }

  /** A PublicKeyCredential as the browser sends it, in JSON. */
  private credential(response: Record<string, unknown>) {
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response,
    };
  }

  /** The answer to /passkey/generate-register-options. */
  register(options: { challenge: string; rp: { id: string } }) {
    const jwk = this.publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]);
    const authData = Buffer.concat([
      sha256(options.rp.id),
      this.flags(AT),
      counterBytes(this.counter),
      Buffer.alloc(16),
      Buffer.from([this.credentialId.length >> 8, this.credentialId.length & 255]),
      this.credentialId,
      cbor(coseKey),
    ]);
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return this.credential({
      clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
      attestationObject: b64url(attestationObject),
      transports: ['internal'],
    });
  }

  /** The answer to /passkey/generate-authenticate-options. */
  authenticate(options: { challenge: string; rpId: string }) {
    this.counter += 1;
    const authData = Buffer.concat([
      sha256(options.rpId),
      this.flags(),
      counterBytes(this.counter),
    ]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), {
      key: this.privateKey,
      dsaEncoding: 'der',
    });
    return this.credential({
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
    });
  }
}
