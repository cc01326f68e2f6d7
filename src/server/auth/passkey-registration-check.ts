/**
 * What a passkey registration says it was made for, read before better-auth's plugin checks
 * it: the page's origin (clientDataJSON) and the relying party (the SHA-256 of its id, the
 * first bytes of the authenticator data inside the CBOR attestation object).
 *
 * The plugin hands SimpleWebAuthn's refusal of a wrong origin or relying party on as a 500
 * with a generic message; read here first, such an answer is a 400 that says which name the
 * passkey was made for and which this server is (docs/decisions/0048-…).
 */
import { createHash } from 'node:crypto';

export interface RegistrationClaims {
  type: string;
  origin: string;
  challenge: string;
  rpIdHash: Buffer;
}

/** A CBOR reader of definite-length items: enough to find the attestation's authData. */
class CborReader {
  private offset = 0;
  constructor(private readonly bytes: Buffer) {}

  private length(info: number): number {
    if (info < 24) return info;
    const size = { 24: 1, 25: 2, 26: 4 }[info];
    if (!size) throw new Error('unsupported CBOR length');
    const value = this.bytes.readUIntBE(this.offset, size);
    this.offset += size;
    return value;
  }

  /** The next item: a number, text, bytes, a Map, an array, or a simple value. */
  read(): unknown {
    const first = this.bytes[this.offset];
    if (first === undefined) throw new Error('CBOR ends early');
    this.offset += 1;
    const major = first >> 5;
    const info = first & 31;
    if (major === 7) return info;
    const length = this.length(info);
    switch (major) {
      case 0:
        return length;
      case 1:
        return -1 - length;
      case 2:
      case 3: {
        const end = this.offset + length;
        if (end > this.bytes.length) throw new Error('CBOR ends early');
        const slice = this.bytes.subarray(this.offset, end);
        this.offset = end;
        return major === 2 ? Buffer.from(slice) : slice.toString('utf8');
      }
      case 4:
        return Array.from({ length }, () => this.read());
      case 5: {
        const map = new Map<unknown, unknown>();
        for (let index = 0; index < length; index += 1) map.set(this.read(), this.read());
        return map;
      }
      default:
        throw new Error('unsupported CBOR item');
    }
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** What a registration's answer claims, or null when it is not a registration's shape. */
export function registrationClaims(body: unknown): RegistrationClaims | null {
  const response = (body as { response?: { response?: unknown } } | null)?.response?.response as
    { clientDataJSON?: unknown; attestationObject?: unknown } | undefined;
  const clientDataJSON = text(response?.clientDataJSON);
  const attestationObject = text(response?.attestationObject);
  if (!clientDataJSON || !attestationObject) return null;
  try {
    const clientData = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as {
      type?: unknown;
      origin?: unknown;
      challenge?: unknown;
    };
    const attestation = new CborReader(Buffer.from(attestationObject, 'base64url')).read();
    const authData = attestation instanceof Map ? attestation.get('authData') : null;
    const type = text(clientData.type);
    const origin = text(clientData.origin);
    const challenge = text(clientData.challenge);
    if (!Buffer.isBuffer(authData) || authData.length < 37 || !type || !origin || !challenge) {
      return null;
    }
    return { type, origin, challenge, rpIdHash: authData.subarray(0, 32) };
  } catch {
    return null;
  }
}

/** Whether the relying party hash is that of `rpId`. */
export function isForRelyingParty(claims: RegistrationClaims, rpId: string): boolean {
  return createHash('sha256').update(rpId).digest().equals(claims.rpIdHash);
}
