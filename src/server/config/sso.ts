/**
 * Single sign-on (OpenID Connect, CONTRACT.md §5 'Passkeys and single sign-on'): the
 * provider's issuer (its discovery document is at {OIDC_ISSUER}/.well-known/openid-configuration),
 * this server's client id and secret there, the name on the button, and whether the provider
 * alone decides who may have an account (OIDC_TRUSTED=true: no passcode for a first sign-in).
 */
import { z } from 'zod';
import { ConfigError, parseEnv, type Env } from './env';

export interface SingleSignOnConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
  trusted: boolean;
}

export const DEFAULT_SINGLE_SIGN_ON_NAME = 'Single Sign-On';

const singleSignOnEnv = z
  .object({
    OIDC_ISSUER: z
      .string()
      .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
        message:
          "OIDC_ISSUER must be the identity provider's issuer URL, like https://auth.example.com/application/o/kin/",
      })
      .refine((value) => !URL.canParse(value) || !new URL(value).search, {
        message: 'OIDC_ISSUER must not carry a query (?…)',
      }),
    OIDC_CLIENT_ID: z
      .string({
        error:
          'OIDC_CLIENT_ID must be set when OIDC_ISSUER is: the client id given by the identity provider',
      })
      .min(
        1,
        'OIDC_CLIENT_ID must be set when OIDC_ISSUER is: the client id given by the identity provider',
      ),
    OIDC_CLIENT_SECRET: z
      .string({
        error:
          'OIDC_CLIENT_SECRET must be set when OIDC_ISSUER is: the client secret given by the identity provider',
      })
      .min(
        1,
        'OIDC_CLIENT_SECRET must be set when OIDC_ISSUER is: the client secret given by the identity provider',
      ),
    OIDC_NAME: z
      .string()
      .trim()
      .max(40, 'OIDC_NAME must be at most 40 characters (it is shown on the sign-in button)')
      .optional(),
    OIDC_TRUSTED: z
      .enum(['true', 'false', ''], { error: 'OIDC_TRUSTED must be true or false' })
      .optional(),
  })
  .transform((env): SingleSignOnConfig => ({
    issuer: env.OIDC_ISSUER.replace(/\/+$/, ''),
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    name: env.OIDC_NAME || DEFAULT_SINGLE_SIGN_ON_NAME,
    trusted: env.OIDC_TRUSTED === 'true',
  }));

/** OIDC_*: all of issuer, client id and secret, or none (single sign-on is then off). */
export function parseSingleSignOnConfig(env: Env): SingleSignOnConfig | null {
  const given = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'].filter((key) => env[key]);
  if (!env.OIDC_ISSUER) {
    if (given.length) {
      throw new ConfigError(
        `OIDC_ISSUER must be set when ${given.join(' and ')} is (single sign-on)`,
      );
    }
    return null;
  }
  return parseEnv(singleSignOnEnv, {
    OIDC_ISSUER: env.OIDC_ISSUER,
    OIDC_CLIENT_ID: env.OIDC_CLIENT_ID || undefined,
    OIDC_CLIENT_SECRET: env.OIDC_CLIENT_SECRET || undefined,
    OIDC_NAME: env.OIDC_NAME,
    OIDC_TRUSTED: env.OIDC_TRUSTED,
  });
}
